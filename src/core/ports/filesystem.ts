/**
 * The workspace filesystem port. Core and tools see only this; the Node adapter implements it.
 * Every path is workspace-relative text exactly as the model sent it.
 */

export const FILE_ERROR_CODES = [
  "file_not_found",
  "invalid_path",
  "path_escape",
  "is_directory",
  "file_too_large",
  "binary_file",
  "edit_no_match",
  "edit_ambiguous",
  "protected_path",
  "hard_link",
  "invalid_utf8_file",
] as const;
export type FileErrorCode = (typeof FILE_ERROR_CODES)[number];

/** A platform error (ENOENT, ELOOP, …) translated into something the model can act on. */
export class WorkspaceFileError extends Error {
  override readonly name = "WorkspaceFileError";
  constructor(
    readonly code: FileErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A search stopped before it finished: it ran past its deadline (a pattern that backtracks
 * without end, such as `(a+)+$` on a long line), or the run was cancelled (Ctrl-C).
 */
export class GrepStoppedError extends Error {
  override readonly name = "GrepStoppedError";
  constructor(
    readonly reason: "deadline" | "cancelled",
    /** The deadline it ran past, in milliseconds. */
    readonly deadlineMs: number,
  ) {
    super(reason === "deadline" ? `grep ran past its ${String(deadlineMs)} ms` : "grep cancelled");
  }
}

export interface ReadFileOptions {
  /** 1-based first line to return. */
  readonly offset?: number;
  /** How many lines to return at most. */
  readonly limit?: number;
}

export interface ReadFileResult {
  readonly text: string;
  /** 1-based line numbers of the returned window, and the file's total line count. */
  readonly firstLine: number;
  readonly lastLine: number;
  readonly totalLines: number;
  /** True when the bytes read are not valid UTF-8: `text` shows those bytes as U+FFFD. */
  readonly invalidUtf8?: boolean;
}

export interface EditFileRequest {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

export interface GlobResult {
  /** Workspace-relative, `/`-separated, sorted. */
  readonly paths: readonly string[];
  /** How many further matches the cap left out. */
  readonly omitted: number;
  /** How many `node_modules` directories were left unsearched (the pattern did not name one). */
  readonly unsearchedDependencyDirectories?: number;
}

/** What `grep` searches for, and how much of it to return. */
export interface GrepRequest {
  /** A JavaScript regular expression, or the text itself when `fixedStrings`. */
  readonly pattern: string;
  readonly fixedStrings: boolean;
  readonly ignoreCase: boolean;
  /** Only files whose workspace-relative paths match this glob (glob's syntax); absent: all. */
  readonly glob?: string;
  /**
   * Only the file, or the files below the folder, this workspace-relative path names (checked as
   * every file tool's path is); absent: the whole workspace.
   */
  readonly path?: string;
  /**
   * Workspace-relative globs of files never opened nor counted (the person's deny and ask path
   * rules): a search must not tell what is in them, not even by a count.
   */
  readonly withheld?: readonly string[];
  /** Lines shown before and after each match. */
  readonly context: number;
  /** At most this many matching lines are returned. */
  readonly maxResults: number;
}

/** One line of a result: a match, or a context line around one. */
export interface GrepLine {
  /** Workspace-relative, `/`-separated. */
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
  readonly match: boolean;
}

export interface GrepResult {
  /** A directory's files in name order, then its subdirectories; each file's lines in order. */
  readonly lines: readonly GrepLine[];
  /** The cap was reached: further lines matched and the search stopped there. */
  readonly truncated: boolean;
  /** Files searched, and files left out as binary (a NUL byte) or over the size limit. */
  readonly searchedFiles: number;
  readonly skippedBinary: number;
  readonly skippedLarge: number;
  /**
   * Set when the request's `path`, or a folder on the way to it, is ignored (`.gitignore`,
   * `.git/info/exclude`) and so was not searched at all: that ignored path, workspace-relative.
   */
  readonly ignoredPath?: string;
}

export interface EditPreview {
  /** The file as `editFile` decodes it (strict UTF-8, BOM kept). */
  readonly before: string;
  readonly after: string;
}

/**
 * A file as a write found it, before the bytes land: what `/undo` puts back. `bytes` is absent
 * when the file was over the size an undo keeps (its size is still said).
 */
export interface BeforeImage {
  readonly sha256: string;
  readonly size: number;
  readonly bytes?: Uint8Array;
}

/** One write about to land: the file (links resolved), what it held, and what it will hold. */
export interface PlannedWrite {
  /** Workspace-relative, `/`-separated: the file the bytes land on, not the model's text. */
  readonly file: string;
  /** `undefined`: there was no file, the write creates it. */
  readonly before: BeforeImage | undefined;
  readonly afterSha256: string;
  readonly afterSize: number;
  /**
   * Workspace-relative folders the write makes for the file (none were there), outermost first:
   * an undo that removes the file removes those it finds empty.
   */
  readonly madeFolders?: readonly string[];
}

/**
 * Told of each write the file tools make, so it can be taken back (`/undo`). `beforeWrite`
 * resolves only once the before-image is durable; the write waits for it, and does not happen if
 * it throws. `afterWrite` follows once the bytes landed.
 */
export interface WriteRecorder {
  beforeWrite(write: PlannedWrite): Promise<void>;
  afterWrite(file: string, sha256: string): Promise<void>;
}

export interface WorkspaceFileSystem {
  readonly root: string;
  readFile(path: string, options?: ReadFileOptions): Promise<ReadFileResult>;
  /**
   * Returns the number of UTF-8 bytes written. Refuses (`invalid_utf8_file`) to replace a file
   * holding bytes that are not valid UTF-8, unless `readFile` said so of that file first.
   * `recorder` hears of the write before and after the bytes land.
   */
  writeFile(path: string, content: string, recorder?: WriteRecorder): Promise<number>;
  /** Returns how many occurrences were replaced. */
  editFile(path: string, edit: EditFileRequest, recorder?: WriteRecorder): Promise<number>;
  /**
   * What `editFile` would make of the file, by the very same read and replacement, without
   * writing: the approval prompt's diff. `undefined` when the edit would fail.
   */
  previewEdit?(path: string, edit: EditFileRequest): Promise<EditPreview | undefined>;
  /**
   * The error `editFile` would throw because of the text itself (`edit_no_match`,
   * `edit_ambiguous`), by the very same read and replacement, without writing; `undefined` when
   * the edit would apply, or fails for another reason (the path: the policy's to judge first).
   */
  editProblem?(path: string, edit: EditFileRequest): Promise<WorkspaceFileError | undefined>;
  /** `withheld`: globs of paths neither listed nor counted (the person's deny and ask rules). */
  glob(pattern: string, withheld?: readonly string[]): Promise<GlobResult>;
  /**
   * Searches the workspace's text files: what `.gitignore` ignores, `.git`, binary files and
   * links are never read. Throws `invalid_path` for a malformed glob, and `GrepStoppedError` when
   * the search ran past its deadline or `signal` aborted it.
   */
  grep?(request: GrepRequest, options?: { readonly signal?: AbortSignal }): Promise<GrepResult>;
}

/**
 * Where a write would land, as the P03 policy's boundary stage sees it: inside the workspace,
 * outside it, or inside it but protected (git metadata, a file the harness writes itself, or one
 * the host loads or runs later: its shell start-up files, git or harness config, a PATH folder).
 */
export type WriteTarget = "inside" | "outside" | "git-metadata" | "harness-file" | "host-config";

/**
 * Where a write lands. `landsOn`: set only when a link leads the named path to another file; the
 * file's workspace-relative path, `/`-separated.
 */
export interface WriteResolution {
  readonly target: WriteTarget;
  readonly landsOn?: string;
}

/** The hard write limit the P03 policy asks before any write; shares `safePath` with the tools. */
export interface WorkspaceWriteBoundary {
  classifyWrite(workspace: string, path: string): Promise<WriteTarget>;
  /**
   * `classifyWrite` that also names, for a write inside, the file it lands on when a link leads
   * elsewhere: the approval prompt and the audit show it from the very check that decided.
   */
  resolveWrite?(workspace: string, path: string): Promise<WriteResolution>;
  /** Where a read would land (P04's boundary checks reads too); reading is never protected. */
  classifyRead?(workspace: string, path: string): Promise<"inside" | "outside">;
}

/** A file now, as `/undo` compares it with what a call found and wrote. */
export type CurrentFile =
  | { readonly kind: "absent" }
  | { readonly kind: "file"; readonly sha256: string }
  /** Outside the workspace, protected, reached through a link, not a regular file: never touched. */
  | { readonly kind: "refused"; readonly reason: string };

/**
 * What `/undo` does to the workspace, through the same boundary and protected paths as the file
 * tools: a path that now leads elsewhere through a link is refused, never followed.
 */
export interface WorkspaceRestorer {
  current(file: string): Promise<CurrentFile>;
  /** Puts `bytes` back at `file`, atomically, if it still holds `expectedSha256`. */
  restore(file: string, bytes: Uint8Array, expectedSha256: string): Promise<void>;
  /** Removes `file` (one the call created), if it still holds `expectedSha256`. */
  remove(file: string, expectedSha256: string): Promise<void>;
  /**
   * Removes the folder `folder` (one a call made) when it is empty and still that folder (no link
   * on the way); says whether it did. Anything in it now keeps it.
   */
  removeEmptyFolder(folder: string): Promise<boolean>;
}
