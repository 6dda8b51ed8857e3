/**
 * Where the files of the project lie that a later session, an editor, CI or the shell loads or
 * runs (core/policy/loaded-later-files.ts says which names): the sandbox binds them read-only for
 * a command where a file tool's write of one asks (chapter 4), and the file tools ask about a
 * write that lands where a link of such a name leads (`AGENTS.md -> docs/rules.md`).
 *
 * Breadth first, LOADED_LATER_DEPTH levels down, at most LOADED_LATER_BUDGET folders and
 * LOADED_LATER_ENTRIES entries in all (more throws LoadedLaterScanError, so decoys cannot hide a
 * real one; a folder is read only as far as the entries bound, never whole), never into
 * installed code (`node_modules`, `.venv`, …) or `.git` (whose names count as entries). A
 * folder it cannot read throws too: a command could `chmod 000` the folder it hid a file in. A
 * link is reported as a link and not entered; where it leads, in the workspace, is its own entry
 * when its name is on the list too, and else `leadsTo` (`wouldLeadTo` for a dangling link: a
 * write there makes the file the host then loads through it). A folder loaded whole (`.github/`,
 * or one such a link leads to) is listed within the same bounds (`node_modules` in it too: CI
 * runs an action's) for the links in it that lead out of it (`.github/workflows/ci.yml ->
 * ../../ci.yml`): binding the folder keeps the link, not what it leads to.
 */
import {
  accessSync,
  constants,
  lstatSync,
  opendirSync,
  realpathSync,
  statSync,
  type Dirent,
} from "node:fs";
import path from "node:path";
import { COMMANDS_WRITE_FOLDERS } from "../../core/policy/loaded-later-files.js";
import { WorkspaceFileError } from "../../core/ports/filesystem.js";
import { errorCode } from "./fs-errors.js";
import { isGitDirectoryName } from "./git-names.js";
import { whereItLeads } from "./host-loaded-paths.js";
import { linksOnTheWay } from "./links-on-the-way.js";
import { isWithinRoot } from "./safe-path.js";

/** Why a workspace-relative, `/`-separated path is loaded or run later; else undefined. */
export type LoadedLaterClassifier = (relativePath: string) => string | undefined;

export const LOADED_LATER_DEPTH = 4;
export const LOADED_LATER_BUDGET = 8192;
/** Entries read in all (files, folders, links): one folder of millions is not read whole. */
export const LOADED_LATER_ENTRIES = 100_000;
/**
 * Never entered: installed code, which the classifiers the walk is given take as holding nothing
 * loaded later (a venv's site-packages alone would spend the entry budget).
 */
const UNSCANNED: ReadonlySet<string> = COMMANDS_WRITE_FOLDERS;
/** A name no entry of the list has: a folder whose every file is loaded later answers for it. */
const ANY_FILE = "\u0000any";

/**
 * One place in the workspace the walk found loaded later (a file, a folder, a link), not to be
 * confused with core's LoadedLaterEntry, a row of the list that says which names are.
 */
export interface LoadedLaterPlace {
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

/** A folder to list: where it is, and, inside a folder whose every file is loaded later, which. */
interface Folder {
  readonly directory: string;
  /** Workspace-relative, `/`-separated: what the list classifies. */
  readonly relative: string;
  readonly within?: Within;
}

/**
 * A folder loaded later as a whole (`.github/`, or where a link of such a name leads): it is bound
 * whole, which covers what it holds but not where a link in it leads (`.github/workflows/ci.yml
 * -> ../../ci.yml`): each such link that leads out of it is an entry of its own.
 */
interface Within {
  /** Its real path. */
  readonly root: string;
  readonly reason: string;
}

/** The loaded-later files and folders that exist in `workspace` (its real path) now. */
export function loadedLaterPlaces(
  workspace: string,
  classify: LoadedLaterClassifier,
  list: FolderListing = listFolder,
  closed: (directory: string) => boolean = closedToThisProcess,
): LoadedLaterPlace[] {
  const found = new Map<string, LoadedLaterPlace>();
  const add = (entry: LoadedLaterPlace): void => {
    if (!found.has(entry.path)) found.set(entry.path, entry);
  };
  let level: Folder[] = [{ directory: workspace, relative: "" }];
  let budget = LOADED_LATER_BUDGET;
  let entries = LOADED_LATER_ENTRIES;
  // A whole folder is listed once, however many links lead there: its first listing is the
  // shallowest, and goes deepest.
  const listed = new Set<string>();
  for (let depth = 0; depth <= LOADED_LATER_DEPTH && level.length > 0; depth += 1) {
    const next: Folder[] = [];
    for (const folder of level) {
      if (folder.within !== undefined) {
        if (listed.has(folder.directory)) continue;
        listed.add(folder.directory);
      }
      if (budget === 0) throw scanLimit(`${String(LOADED_LATER_BUDGET)} directories`);
      budget -= 1;
      for (const entry of readable(list, folder.directory, closed)) {
        if (entries === 0) throw scanLimit(`${String(LOADED_LATER_ENTRIES)} entries`);
        entries -= 1;
        if (isGitDirectoryName(entry.name)) continue;
        const full = path.join(folder.directory, entry.name);
        const name = folder.relative === "" ? entry.name : `${folder.relative}/${entry.name}`;
        const { within } = folder;
        if (within !== undefined) {
          // Everything here is bound with the folder; only a link can lead elsewhere.
          if (entry.isSymbolicLink()) {
            const link = linkEntry(workspace, full, within.reason);
            const outside = (place: string) => !isWithinRoot(within.root, place);
            link.via.filter((on) => outside(on.path)).forEach(add);
            const lands = link.entry.leadsTo ?? link.entry.wouldLeadTo;
            // Outside the workspace it is read-only to commands and refused to the file tools.
            if (lands === undefined || !outside(lands)) continue;
            add(link.entry);
            if (link.folder !== undefined) next.push(wholeFolder(link.folder, name, within.reason));
          } else if (entry.isDirectory()) {
            next.push({ directory: full, relative: name, within });
          }
          continue;
        }
        if (entry.isSymbolicLink()) {
          const reason = classify(name) ?? classify(`${name}/${ANY_FILE}`);
          if (reason === undefined) continue;
          const link = linkEntry(workspace, full, reason);
          add(link.entry);
          link.via.forEach(add);
          if (link.folder !== undefined) next.push(wholeFolder(link.folder, name, reason));
          continue;
        }
        if (entry.isDirectory()) {
          const reason = classify(`${name}/${ANY_FILE}`);
          if (reason !== undefined) {
            add({ path: full, reason });
            next.push(wholeFolder(full, name, reason));
          } else if (!UNSCANNED.has(entry.name)) next.push({ directory: full, relative: name });
          continue;
        }
        const reason = classify(name);
        if (reason !== undefined && entry.isFile()) add({ path: full, reason });
      }
    }
    level = next;
  }
  return [...found.values()];
}

function wholeFolder(root: string, relative: string, reason: string): Folder {
  return { directory: root, relative, within: { root, reason } };
}

/**
 * A link's entry, the folder it leads to in the workspace when it leads to one, and an entry for
 * each link of the workspace on the way there (`AGENTS.md -> notes.md -> docs/rules.md`): where
 * it leads is bound, but the way to it could be retargeted, so each is compared too.
 */
function linkEntry(
  workspace: string,
  link: string,
  reason: string,
): { entry: LoadedLaterPlace; folder?: string; via: LoadedLaterPlace[] } {
  const found = leadsFrom(workspace, link, reason);
  const via = linksOnTheWay(link)
    .filter((place) => isWithinRoot(workspace, place) && place !== workspace)
    .map((place) => ({ ...found.entry, path: place }));
  return { ...found, via };
}

function leadsFrom(
  workspace: string,
  link: string,
  reason: string,
): { entry: LoadedLaterPlace; folder?: string } {
  try {
    const real = realpathSync.native(link);
    if (isWithinRoot(workspace, real) && real !== workspace) {
      const entry: LoadedLaterPlace = { path: link, reason, link: true, leadsTo: real };
      return statSync(real).isDirectory() ? { entry, folder: real } : { entry };
    }
  } catch {
    // dangling, or a loop: worked out below as a write would follow it
  }
  const awaited = whereItLeads(link);
  if (awaited !== link && isWithinRoot(workspace, awaited) && awaited !== workspace) {
    return { entry: { path: link, reason, link: true, wouldLeadTo: awaited } };
  }
  return { entry: { path: link, reason, link: true } };
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
 * nothing, nor does one this process may not read and could never have written or opened up (a
 * database's data folder of another user, `lost+found`): no command run here put anything there.
 * Any other error throws: read as empty, an unreadable folder would hide what it holds (a
 * command can `chmod 000` a folder of its own after planting a file in it).
 */
function* readable(
  list: FolderListing,
  directory: string,
  closed: (directory: string) => boolean,
): Generator<Dirent> {
  try {
    yield* list(directory);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return;
    if ((code === "EACCES" || code === "EPERM") && closed(directory)) return;
    throw new LoadedLaterScanError(
      `${directory} cannot be read (${code ?? String(error)}), so a file a later session, an ` +
        `editor or CI loads could lie there unseen`,
      "make it readable",
    );
  }
}

/**
 * Whether `directory` belongs to another user and this process may not write in it: then no
 * command run by this user can have made, filled or shut it. Anything else (our own folder, one
 * we may write in, a question that fails, a platform without user ids) is not closed.
 */
export function closedToThisProcess(directory: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return false;
  try {
    if (lstatSync(directory).uid === uid) return false;
    accessSync(directory, constants.W_OK);
    return false;
  } catch (error) {
    return errorCode(error) === "EACCES";
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
): LoadedLaterPlace | undefined {
  return loadedLaterPlaces(workspace, classify, list).find((entry) => {
    const leadsTo = entry.leadsTo ?? entry.wouldLeadTo;
    return leadsTo !== undefined && isWithinRoot(leadsTo, target);
  });
}
