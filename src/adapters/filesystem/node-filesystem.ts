/**
 * The Node adapter for the workspace filesystem port. Every path goes through `safePath` first;
 * writes also refuse `.git` (`safeWritablePath`), check again just before the bytes land, and land
 * atomically.
 */
import { isUtf8 } from "node:buffer";
import { lstat, type FileHandle } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import {
  WorkspaceFileError,
  type EditFileRequest,
  type EditPreview,
  type GlobResult,
  type GrepRequest,
  type GrepResult,
  type ReadFileOptions,
  type ReadFileResult,
  type WorkspaceFileSystem,
  type WorkspaceWriteBoundary,
  type BeforeImage,
  type PlannedWrite,
  type WriteRecorder,
  type WriteResolution,
  type WriteTarget,
} from "../../core/ports/filesystem.js";
import type { LoadedThroughLink } from "../../core/policy/loaded-later-files.js";
import { writeFileAtomically } from "./atomic-write.js";
import { readBeforeImage, sha256Of } from "./before-image.js";
import { isDirectory } from "./fs-errors.js";
import { GlobPattern } from "./glob-pattern.js";
import { scanLineWindow } from "./line-window.js";
import {
  isWithinRoot,
  ProtectedPathError,
  type BoundaryMemory,
  type WriteProtection,
  realpathNative,
  resolvedTargetNow,
  safePath,
  safeWritablePath,
} from "./safe-path.js";
import type { HostLoadedPath } from "./host-loaded-paths.js";
import type { HostFilesSource } from "./safe-path.js";
import { GitDelegationCache } from "./git-delegation-cache.js";
import { RealRootOnce } from "./real-root-once.js";
import { openCheckedForReading } from "./open-for-reading.js";
import { readAtMost } from "./safe-open.js";
import { applyEdit } from "./text-edit.js";
import { holdsInvalidUtf8 } from "./utf8-check.js";
import { makeDirectories } from "./write-directories.js";
import { writeLanding } from "./write-landing.js";
import { loadedThrough, type LoadedLaterClassifier } from "./loaded-later-walk.js";
import { globWorkspace } from "./workspace-glob.js";
import { GREP_DEADLINE_MS, grepInWorker, type GrepWorkerScript } from "./grep-in-worker.js";
import { grepSearchRoot } from "./grep-search-root.js";

/** `read_file` returns at most this many bytes; larger files are read in line windows. */
export const READ_LIMIT_BYTES = 256 * 1024;
/** `edit_file` holds the whole file in memory, so it only edits files up to this size. */
export const EDIT_LIMIT_BYTES = 4 * 1024 * 1024;
/**
 * `write_file` and `edit_file` write at most this much: a file the tools write is one `edit_file`
 * can edit again, and one `replace_all` cannot turn 4 MB into 400 MB.
 */
export const WRITE_LIMIT_BYTES = EDIT_LIMIT_BYTES;
/** `glob` lists at most this many paths and says how many more matched. */
export const GLOB_RESULT_LIMIT = 1000;

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
// The read tool drops a BOM (edits keep it) and shows invalid bytes as U+FFFD.
const lenientUtf8 = new TextDecoder("utf-8");

export interface ProtectedFiles {
  /**
   * Absolute real paths of the files the harness writes itself (audit log, recording), decided
   * once at start; a write to one is `protected_path`.
   */
  readonly harnessFiles?: readonly string[];
  /**
   * What the host loads or runs later (shell start-up files, git's global config, the harness's
   * settings, the folders on PATH: host-loaded-paths.ts), worked out at the first write checked;
   * a write to one is `protected_path` in every chapter.
   */
  readonly hostFiles?: HostFilesSource;
}

function protectionOf(options: ProtectedFiles): WriteProtection {
  const harnessFiles = Object.freeze([...(options.harnessFiles ?? [])]);
  const hostFiles = options.hostFiles;
  return Object.freeze({
    harnessFiles,
    get hostFiles(): readonly HostLoadedPath[] {
      return hostFiles?.() ?? [];
    },
  });
}

export interface WorkspaceFileSystemOptions extends ProtectedFiles {
  /**
   * Asked at each glob: true only when no command of this run can still be running (each ran in
   * the sandbox, whose processes end with its call), so none can swap a directory for a link
   * mid-walk and glob may list directories by path, in about half the time. Unset: never, and
   * every directory is listed through a held descriptor (where /proc lets it: see held-listing).
   */
  readonly noProcessRunsAlongside?: () => boolean;
  /** How long one `grep` may run before its worker is stopped; GREP_DEADLINE_MS unless set. */
  readonly grepDeadlineMs?: number;
  /** Where grep's worker program is; unset: found beside this module (grep-in-worker.ts). */
  readonly grepWorker?: GrepWorkerScript;
}

export class NodeWorkspaceFileSystem implements WorkspaceFileSystem {
  readonly root: string;
  readonly #protection: WriteProtection;
  readonly #noProcessRunsAlongside: () => boolean;
  readonly #grepDeadlineMs: number;
  readonly #grepWorker: GrepWorkerScript | undefined;
  /**
   * The files (real paths) `readFile` reported as not valid UTF-8 (or as binary) in this run:
   * the model was told, so a `writeFile` may replace them.
   */
  readonly #toldNotUtf8 = new Set<string>();

  /** `root` is the workspace directory; a relative one is taken from the current directory. */
  constructor(root: string, options: WorkspaceFileSystemOptions = {}) {
    this.root = resolve(root);
    this.#protection = protectionOf(options);
    this.#noProcessRunsAlongside = options.noProcessRunsAlongside ?? (() => false);
    this.#grepDeadlineMs = options.grepDeadlineMs ?? GREP_DEADLINE_MS;
    this.#grepWorker = options.grepWorker;
  }

  async readFile(path: string, options: ReadFileOptions = {}): Promise<ReadFileResult> {
    const target = await safePath(this.root, path);
    const handle = await openForReading(target, path);
    try {
      const { size } = await handle.stat();
      const windowed = options.offset !== undefined || options.limit !== undefined;
      if (!windowed && size > READ_LIMIT_BYTES) {
        throw new WorkspaceFileError(
          "file_too_large",
          `${path} is ${size} bytes, over the ${READ_LIMIT_BYTES}-byte read limit; read it in ` +
            `parts with offset and limit (line numbers, from 1), e.g. offset 1 and limit 1000`,
        );
      }
      const firstLine = options.offset ?? 1;
      const lastLine = options.limit === undefined ? Infinity : firstLine + options.limit - 1;
      const scan = await scanLineWindow(handle, {
        firstLine,
        lastLine,
        maxBytes: READ_LIMIT_BYTES,
        fileBytes: size,
      });
      switch (scan.kind) {
        case "binary":
          this.#toldNotUtf8.add(target);
          throw binaryFile(path);
        case "tooLarge":
          throw new WorkspaceFileError(
            "file_too_large",
            `the requested lines of ${path} are over the ${READ_LIMIT_BYTES}-byte read limit; ` +
              `ask for fewer lines with a smaller limit`,
          );
        case "text": {
          const invalidUtf8 = !isUtf8(scan.bytes);
          if (invalidUtf8) this.#toldNotUtf8.add(target);
          return {
            text: lenientUtf8.decode(scan.bytes),
            firstLine,
            lastLine: Math.min(lastLine, scan.totalLines),
            totalLines: scan.totalLines,
            ...(invalidUtf8 ? { invalidUtf8 } : {}),
          };
        }
      }
    } finally {
      await handle.close();
    }
  }

  async writeFile(path: string, content: string, recorder?: WriteRecorder): Promise<number> {
    const size = Buffer.byteLength(content, "utf8");
    if (size > WRITE_LIMIT_BYTES) throw overWriteLimit(path, size);
    const data = Buffer.from(content, "utf8");
    const target = await this.#writable(path);
    if (!this.#toldNotUtf8.has(target) && (await replacesInvalidUtf8(target, path))) {
      throw new WorkspaceFileError(
        "invalid_utf8_file",
        `${path} holds bytes that are not valid UTF-8, which this write would replace; nothing ` +
          `was written. read_file it first (it shows those bytes as U+FFFD): a write_file after ` +
          `that replaces the file`,
      );
    }
    // Before anything changes, its parent directories included: the before-image is durable.
    const written =
      recorder === undefined
        ? undefined
        : await this.#recordBefore(
            recorder,
            target,
            data,
            await readBeforeImage(target, path),
            await this.#foldersToMake(target),
          );
    await this.#createParentDirectories(target, path);
    await writeFileAtomically(await this.#recheck(target, path), data, path);
    if (written !== undefined) await recorder?.afterWrite(written.file, written.afterSha256);
    return data.byteLength;
  }

  async editFile(path: string, edit: EditFileRequest, recorder?: WriteRecorder): Promise<number> {
    const target = await this.#writable(path);
    const original = await readForEditing(target, path);
    const outcome = applyEdit(original, edit, WRITE_LIMIT_BYTES);
    switch (outcome.kind) {
      case "too_large":
        throw overWriteLimit(path, outcome.bytes);
      case "no_match":
      case "ambiguous":
        throw editTextError(outcome, path);
      case "edited": {
        const data = Buffer.from(outcome.text, "utf8");
        // The very bytes the edit read: strict UTF-8 with the BOM kept encodes back to them.
        const before = Buffer.from(original, "utf8");
        const written =
          recorder === undefined
            ? undefined
            : await this.#recordBefore(recorder, target, data, {
                sha256: sha256Of(before),
                size: before.byteLength,
                bytes: before,
              });
        await writeFileAtomically(await this.#recheck(target, path), data, path);
        if (written !== undefined) await recorder?.afterWrite(written.file, written.afterSha256);
        return outcome.replaced;
      }
    }
  }

  /** Tells `recorder` of the write about to land; it resolves once that is durable. */
  async #recordBefore(
    recorder: WriteRecorder,
    target: string,
    data: Uint8Array,
    before: BeforeImage | undefined,
    madeFolders: readonly string[] = [],
  ): Promise<PlannedWrite> {
    const planned: PlannedWrite = {
      file: relative(await realpathNative(this.root), target)
        .split(sep)
        .join("/"),
      before,
      afterSha256: sha256Of(data),
      afterSize: data.byteLength,
      ...(madeFolders.length === 0 ? {} : { madeFolders }),
    };
    await recorder.beforeWrite(planned);
    return planned;
  }

  async editProblem(path: string, edit: EditFileRequest): Promise<WorkspaceFileError | undefined> {
    let outcome: ReturnType<typeof applyEdit>;
    try {
      const target = await this.#writable(path);
      outcome = applyEdit(await readForEditing(target, path), edit, WRITE_LIMIT_BYTES);
    } catch {
      return undefined;
    }
    return outcome.kind === "no_match" || outcome.kind === "ambiguous"
      ? editTextError(outcome, path)
      : undefined;
  }

  async previewEdit(path: string, edit: EditFileRequest): Promise<EditPreview | undefined> {
    try {
      const target = await this.#writable(path);
      const before = await readForEditing(target, path);
      const outcome = applyEdit(before, edit, WRITE_LIMIT_BYTES);
      return outcome.kind === "edited" ? { before, after: outcome.text } : undefined;
    } catch {
      return undefined;
    }
  }

  async glob(pattern: string, withheld?: readonly string[]): Promise<GlobResult> {
    const compiled = GlobPattern.compile(pattern);
    const listing = this.#noProcessRunsAlongside() ? "by-path" : "held";
    const root = await realpathNative(this.root);
    return globWorkspace(root, compiled, GLOB_RESULT_LIMIT, listing, withheld);
  }

  async grep(
    request: GrepRequest,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<GrepResult> {
    // A malformed glob is the model's to fix: said before any worker starts (it compiles again).
    if (request.glob !== undefined) GlobPattern.compile(request.glob);
    const root = await realpathNative(this.root);
    // The worker is given the checked folder's real workspace-relative path, or none at all.
    const { path, ...whole } = request;
    const under = path === undefined ? "" : await grepSearchRoot(root, path);
    return grepInWorker(root, under === "" ? whole : { ...whole, path: under }, {
      deadlineMs: this.#grepDeadlineMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(this.#grepWorker === undefined ? {} : { script: this.#grepWorker }),
    });
  }

  /**
   * The folders between the workspace and `target` that are not there yet, workspace-relative,
   * outermost first: what the write will make for the file, recorded for an undo.
   */
  async #foldersToMake(target: string): Promise<string[]> {
    const root = await realpathNative(this.root);
    const missing: string[] = [];
    for (let folder = dirname(target); folder !== root && isWithinRoot(root, folder);) {
      if ((await lstat(folder).catch(() => undefined)) !== undefined) break;
      missing.unshift(relative(root, folder).split(sep).join("/"));
      const parent = dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
    return missing;
  }

  async #createParentDirectories(target: string, path: string): Promise<void> {
    const root = await realpathNative(this.root);
    // The workspace itself is the only target whose parent lies outside it.
    if (isWithinRoot(target, root)) throw isDirectory(path);
    const directory = dirname(target);
    // The usual case, a parent that is there, costs one lstat; the write holds it anyway.
    if ((await lstat(directory).catch(() => undefined))?.isDirectory() === true) return;
    makeDirectories(root, directory, path);
  }

  #writable(path: string): Promise<string> {
    const { harnessFiles, hostFiles } = this.#protection;
    return safeWritablePath(this.root, path, harnessFiles, hostFiles);
  }

  /** The boundary again, right before writing: anything that moved since is refused. */
  async #recheck(target: string, path: string): Promise<string> {
    const again = await this.#writable(path);
    if (again !== target) {
      throw new WorkspaceFileError("path_escape", `the path changed while writing: ${path}`);
    }
    return again;
  }
}

/**
 * The P03 hard write limit: the same `safeWritablePath` the tools use, so a write the tool would
 * refuse as outside or protected is denied before any rule or prompt.
 */
export class NodeWorkspaceWriteBoundary implements WorkspaceWriteBoundary {
  readonly #protection: WriteProtection;
  /**
   * Kept for the boundary's life: the workspace's real path, and git's config while
   * its files are unchanged. Every path is still resolved at every decision.
   */
  readonly #memory: BoundaryMemory = Object.freeze({
    realRoot: new RealRootOnce().of,
    delegatedAround: new GitDelegationCache().around,
  });

  constructor(options: ProtectedFiles = {}) {
    this.#protection = protectionOf(options);
  }

  classifyWrite(workspace: string, path: string): Promise<WriteTarget> {
    return this.resolveWrite(workspace, path).then((resolution) => resolution.target);
  }

  resolveWrite(workspace: string, path: string): Promise<WriteResolution> {
    // The check is synchronous: one promise for the answer, a throw as a rejection.
    return new Promise((resolve) => {
      resolve(this.#resolveWriteNow(workspace, path));
    });
  }

  #resolveWriteNow(workspace: string, path: string): WriteResolution {
    try {
      const target = resolvedTargetNow(workspace, path, this.#protection, this.#memory);
      const landsOn = writeLanding(this.#memory.realRoot(workspace), path, target, { workspace });
      return landsOn === undefined ? { target: "inside" } : { target: "inside", landsOn };
    } catch (error) {
      if (error instanceof ProtectedPathError) return { target: error.kind };
      // Any other refusal (invalid, escaping) is outside; anything else denies upstream.
      if (error instanceof WorkspaceFileError) return { target: "outside" };
      throw error;
    }
  }

  classifyRead(workspace: string, path: string): Promise<"inside" | "outside"> {
    // A throw arrives as a rejection, as from every other boundary method.
    return Promise.resolve().then(() =>
      this.classifyNow(workspace, "read", path) === "inside" ? "inside" : "outside",
    );
  }

  /**
   * Where a read or a write would land, now and synchronously (the P04 policy's
   * `classifyPath`): the same resolution as the tools', so what it calls inside they open inside.
   * Reading protected files stays allowed, as it does for the tools.
   */
  classifyNow(workspace: string, effect: "read" | "write", path: string): WriteTarget {
    try {
      resolvedTargetNow(
        workspace,
        path,
        effect === "write" ? this.#protection : undefined,
        this.#memory,
      );
      return "inside";
    } catch (error) {
      if (error instanceof ProtectedPathError) return error.kind;
      if (error instanceof WorkspaceFileError) return "outside";
      throw error;
    }
  }

  /**
   * Where a write of `path` lands, workspace-relative and `/`-separated, links followed as the
   * tools follow them (the P04 policy asks whether a later session, an editor or CI loads it).
   * Throws what the write itself would be refused with.
   */
  landingNow(workspace: string, path: string): string {
    const target = resolvedTargetNow(workspace, path, this.#protection, this.#memory);
    return relative(this.#memory.realRoot(workspace), target).split(sep).join("/");
  }

  /**
   * What a read of `path` reaches, workspace-relative and `/`-separated, links followed as the
   * tools follow them (`notes/key.txt` when `notes -> secrets` reads `secrets/key.txt`): a
   * person's deny names the file, not the way to it. Throws what the read would be refused with.
   */
  readingNow(workspace: string, path: string): string {
    const target = resolvedTargetNow(workspace, path, undefined, this.#memory);
    return relative(this.#memory.realRoot(workspace), target).split(sep).join("/");
  }

  /**
   * The loaded-later link (`AGENTS.md -> docs/rules.md`, or one in a folder loaded whole:
   * `.github/workflows/ci.yml -> ../../ci.yml`), workspace-relative, that leads to where a write
   * of `path` lands or to a folder holding it, and why; undefined for none. Throws when the write
   * is refused or the workspace is too large to look through.
   */
  loadedThroughNow(
    workspace: string,
    path: string,
    classify: LoadedLaterClassifier,
  ): LoadedThroughLink | undefined {
    const root = this.#memory.realRoot(workspace);
    const target = resolvedTargetNow(workspace, path, this.#protection, this.#memory);
    const entry = loadedThrough(root, target, classify);
    return entry === undefined
      ? undefined
      : { link: relative(root, entry.path).split(sep).join("/"), reason: entry.reason };
  }

  async isPathWithinWorkspace(workspace: string, path: string): Promise<boolean> {
    try {
      await safePath(workspace, path);
      return true;
    } catch (error) {
      // A path the rules refuse is simply outside; anything else stays an error (deny upstream).
      if (error instanceof WorkspaceFileError) return false;
      throw error;
    }
  }
}

/** Whether the file a write would replace exists and holds bytes that are not valid UTF-8. */
async function replacesInvalidUtf8(target: string, path: string): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await openForReading(target, path);
  } catch (error) {
    // Nothing there to lose; or a name with another name elsewhere, which write_file replaces
    // with a file of its own while the other name keeps the bytes. Any other refusal (a
    // directory, a device): fail closed.
    if (
      error instanceof WorkspaceFileError &&
      (error.code === "file_not_found" || error.code === "hard_link")
    ) {
      return false;
    }
    throw error;
  }
  try {
    return await holdsInvalidUtf8(handle);
  } finally {
    await handle.close();
  }
}

/** As `read_file` opens: one name only (see `ReadOpenOptions.oneName`). */
function openForReading(target: string, path: string): Promise<FileHandle> {
  return openCheckedForReading(target, path, { oneName: true });
}

async function readForEditing(target: string, path: string): Promise<string> {
  const handle = await openForReading(target, path);
  try {
    const bytes = await readAtMost(handle, EDIT_LIMIT_BYTES);
    if (bytes === undefined) {
      throw new WorkspaceFileError(
        "file_too_large",
        `${path} is over the ${EDIT_LIMIT_BYTES}-byte edit limit; edit_file cannot change it`,
      );
    }
    if (bytes.includes(0)) throw binaryFile(path);
    try {
      return strictUtf8.decode(bytes);
    } catch {
      throw new WorkspaceFileError(
        "binary_file",
        `${path} is not valid UTF-8 text; edit_file only edits UTF-8 text files`,
      );
    }
  } finally {
    await handle.close();
  }
}

function overWriteLimit(path: string, bytes: number): WorkspaceFileError {
  return new WorkspaceFileError(
    "file_too_large",
    `${path} would be ${bytes} bytes, over the ${WRITE_LIMIT_BYTES}-byte write limit; nothing ` +
      `was written. Keep files the tools write under the limit`,
  );
}

function binaryFile(path: string): WorkspaceFileError {
  return new WorkspaceFileError(
    "binary_file",
    `${path} looks binary (it contains NUL bytes); only UTF-8 text files can be read`,
  );
}

/** Why an edit's text cannot apply, in the words the model reads (the same before and at the write). */
function editTextError(
  outcome:
    { readonly kind: "no_match" } | { readonly kind: "ambiguous"; readonly occurrences: number },
  path: string,
): WorkspaceFileError {
  return outcome.kind === "no_match"
    ? new WorkspaceFileError(
        "edit_no_match",
        `old_string was not found in ${path}; read the file and copy the text exactly, ` +
          `including whitespace and indentation`,
      )
    : new WorkspaceFileError(
        "edit_ambiguous",
        `old_string occurs ${outcome.occurrences} times in ${path}; add surrounding lines to ` +
          `make it unique, or set replace_all to true to replace every occurrence`,
      );
}
