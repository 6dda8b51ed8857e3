/**
 * Where the files of the project lie that a later session, an editor, CI or the shell loads or
 * runs (core/policy/loaded-later-files.ts says which names): the sandbox binds them read-only for
 * a command where a file tool's write of one asks (chapter 4), and the file tools ask about a
 * write that lands where a link of such a name leads (`AGENTS.md -> docs/rules.md`).
 *
 * Breadth first, LOADED_LATER_DEPTH levels down, at most LOADED_LATER_BUDGET folders and
 * LOADED_LATER_ENTRIES entries in all (more throws LoadedLaterScanError, so decoys cannot hide a
 * real one; a folder is read only as far as the entries bound, never whole), never into
 * `node_modules` or `.git` (whose names count as entries). A
 * folder it cannot read throws too: a command could `chmod 000` the folder it hid a file in. A
 * link is reported as a link and not entered; where it leads, in the workspace, is its own entry
 * when its name is on the list too, and else `leadsTo` (`wouldLeadTo` for a dangling link: a
 * write there makes the file the host then loads through it).
 */
import { opendirSync, realpathSync, type Dirent } from "node:fs";
import path from "node:path";
import { WorkspaceFileError } from "../../core/ports/filesystem.js";
import { errorCode } from "./fs-errors.js";
import { isGitDirectoryName } from "./git-names.js";
import { whereItLeads } from "./host-loaded-paths.js";
import { isWithinRoot } from "./safe-path.js";

/** Why a workspace-relative, `/`-separated path is loaded or run later; else undefined. */
export type LoadedLaterClassifier = (relativePath: string) => string | undefined;

export const LOADED_LATER_DEPTH = 4;
export const LOADED_LATER_BUDGET = 8192;
/** Entries read in all (files, folders, links): one folder of millions is not read whole. */
export const LOADED_LATER_ENTRIES = 100_000;
const UNSCANNED = new Set(["node_modules"]);
/** A name no entry of the list has: a folder whose every file is loaded later answers for it. */
const ANY_FILE = "\u0000any";

export interface LoadedLaterEntry {
  /** Absolute path of the file, folder or link. */
  readonly path: string;
  readonly reason: string;
  /** A link (never bound: a mount follows it). */
  readonly link?: true;
  /** For a link: the real path it leads to, when that exists inside the workspace. */
  readonly leadsTo?: string;
  /**
   * For a dangling link: where a write would make the file it leads to, when that lies inside the
   * workspace. Nothing there to bind, but making it changes what the host loads through the link.
   */
  readonly wouldLeadTo?: string;
}

/** A folder's entries; platform errors thrown as they are (tests inject one that fails). */
export type FolderListing = (directory: string) => Iterable<Dirent>;

/** The walk could not look everywhere; `remedy` says what the person can do about it. */
export class LoadedLaterScanError extends WorkspaceFileError {
  constructor(
    message: string,
    readonly remedy: string,
  ) {
    super("path_escape", message);
  }
}

/** The loaded-later files and folders that exist in `workspace` (its real path) now. */
export function loadedLaterEntries(
  workspace: string,
  classify: LoadedLaterClassifier,
  list: FolderListing = listFolder,
): LoadedLaterEntry[] {
  const found: LoadedLaterEntry[] = [];
  let level = [""];
  let budget = LOADED_LATER_BUDGET;
  let entries = LOADED_LATER_ENTRIES;
  for (let depth = 0; depth <= LOADED_LATER_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const relative of level) {
      if (budget === 0) throw scanLimit(`${String(LOADED_LATER_BUDGET)} directories`);
      budget -= 1;
      for (const entry of readable(list, path.join(workspace, relative))) {
        if (entries === 0) throw scanLimit(`${String(LOADED_LATER_ENTRIES)} entries`);
        entries -= 1;
        const name = relative === "" ? entry.name : `${relative}/${entry.name}`;
        if (isGitDirectoryName(entry.name)) continue;
        if (entry.isSymbolicLink()) {
          const reason = classify(name) ?? classify(`${name}/${ANY_FILE}`);
          if (reason !== undefined) found.push(linkEntry(workspace, name, reason));
          continue;
        }
        if (entry.isDirectory()) {
          const reason = classify(`${name}/${ANY_FILE}`);
          if (reason !== undefined) found.push({ path: path.join(workspace, name), reason });
          else if (!UNSCANNED.has(entry.name)) next.push(name);
          continue;
        }
        const reason = classify(name);
        if (reason !== undefined && entry.isFile()) {
          found.push({ path: path.join(workspace, name), reason });
        }
      }
    }
    level = next;
  }
  return found;
}

function linkEntry(workspace: string, name: string, reason: string): LoadedLaterEntry {
  const link = path.join(workspace, name);
  try {
    const real = realpathSync.native(link);
    if (isWithinRoot(workspace, real) && real !== workspace) {
      return { path: link, reason, link: true, leadsTo: real };
    }
  } catch {
    // dangling, or a loop: worked out below as a write would follow it
  }
  const awaited = whereItLeads(link);
  if (awaited !== link && isWithinRoot(workspace, awaited) && awaited !== workspace) {
    return { path: link, reason, link: true, wouldLeadTo: awaited };
  }
  return { path: link, reason, link: true };
}

/** Entries one by one as the platform reads them, so a walk that stops reads no further. */
function* listFolder(directory: string): Generator<Dirent> {
  const folder = opendirSync(directory);
  try {
    for (let entry = folder.readSync(); entry !== null; entry = folder.readSync()) yield entry;
  } finally {
    folder.closeSync();
  }
}

/**
 * A folder's entries. One that vanished (or became a file) since its parent was listed holds
 * nothing; any other error throws: read as empty, an unreadable folder would hide what it holds.
 */
function* readable(list: FolderListing, directory: string): Generator<Dirent> {
  try {
    yield* list(directory);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return;
    throw new LoadedLaterScanError(
      `${directory} cannot be read (${code ?? String(error)}), so a file a later session, an ` +
        `editor or CI loads could lie there unseen`,
      "make it readable",
    );
  }
}

function scanLimit(what: string): LoadedLaterScanError {
  return new LoadedLaterScanError(
    `the workspace holds more than ${what} within ` +
      `${String(LOADED_LATER_DEPTH)} levels, too many to find every file a later session, an ` +
      `editor or CI loads`,
    "run the agent in a smaller directory",
  );
}

/**
 * The loaded-later name whose link leads, or would lead once it is made, to `target` (a real
 * path) or a folder holding it.
 */
export function loadedThrough(
  workspace: string,
  target: string,
  classify: LoadedLaterClassifier,
  list: FolderListing = listFolder,
): LoadedLaterEntry | undefined {
  return loadedLaterEntries(workspace, classify, list).find((entry) => {
    const leadsTo = entry.leadsTo ?? entry.wouldLeadTo;
    return leadsTo !== undefined && isWithinRoot(leadsTo, target);
  });
}
