/**
 * Where the files of the project lie that a later session, an editor, CI or the shell loads or
 * runs (core/policy/loaded-later-files.ts says which names): the sandbox binds them read-only for
 * a command where a file tool's write of one asks (chapter 4), and the file tools ask about a
 * write that lands where a link of such a name leads (`AGENTS.md -> docs/rules.md`).
 *
 * Breadth first, LOADED_LATER_DEPTH levels down, at most LOADED_LATER_BUDGET folders (more throws
 * WorkspaceFileError, so decoys cannot hide a real one), never into `node_modules` or `.git`. A
 * link is reported as a link and not entered; where it leads, in the workspace, is its own entry
 * when its name is on the list too, and else `leadsTo`.
 */
import { readdirSync, realpathSync, type Dirent } from "node:fs";
import path from "node:path";
import { WorkspaceFileError } from "../../core/ports/filesystem.js";
import { isGitDirectoryName } from "./git-names.js";
import { isWithinRoot } from "./safe-path.js";

/** Why a workspace-relative, `/`-separated path is loaded or run later; else undefined. */
export type LoadedLaterClassifier = (relativePath: string) => string | undefined;

export const LOADED_LATER_DEPTH = 4;
export const LOADED_LATER_BUDGET = 8192;
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
}

/** The loaded-later files and folders that exist in `workspace` (its real path) now. */
export function loadedLaterEntries(
  workspace: string,
  classify: LoadedLaterClassifier,
): LoadedLaterEntry[] {
  const found: LoadedLaterEntry[] = [];
  let level = [""];
  let budget = LOADED_LATER_BUDGET;
  for (let depth = 0; depth <= LOADED_LATER_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const relative of level) {
      if (budget === 0) throw scanLimit();
      budget -= 1;
      for (const entry of listDirectory(path.join(workspace, relative))) {
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
    // dangling, or a loop: it leads nowhere a write could reach through it now
  }
  return { path: link, reason, link: true };
}

function listDirectory(directory: string): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
}

function scanLimit(): WorkspaceFileError {
  return new WorkspaceFileError(
    "path_escape",
    `the workspace holds more than ${String(LOADED_LATER_BUDGET)} directories within ` +
      `${String(LOADED_LATER_DEPTH)} levels, too many to find every file a later session, an ` +
      `editor or CI loads`,
  );
}

/** The loaded-later name whose link leads to `target` (a real path) or a folder holding it. */
export function loadedThrough(
  workspace: string,
  target: string,
  classify: LoadedLaterClassifier,
): LoadedLaterEntry | undefined {
  return loadedLaterEntries(workspace, classify).find(
    (entry) => entry.leadsTo !== undefined && isWithinRoot(entry.leadsTo, target),
  );
}
