/**
 * Files of the project that a later session, an editor, CI or the shell loads or runs
 * (core/grants/loaded-later-files.ts) are asked about when a file tool writes them; where that is
 * the rule (chapter 4), a sandboxed command must not write them unasked either. The person
 * approves a command (`npm test`), not what the code it runs writes, and that code may be a
 * file the model wrote without asking. So each command finds those that exist read-only, and
 * one it creates is named after its output. A bind needs something to mount on: one not made yet
 * cannot be kept from being made, only named.
 *
 * Found the way the git metadata scan finds nested repositories: breadth first, NESTED_DEPTH
 * levels down, at most DIRECTORY_BUDGET folders (more refuses the command, so decoys cannot
 * hide a real one), never into `node_modules` or `.git`, never through a link (a mount follows
 * it; where a link lands, in the workspace, is found under its own name).
 */
import { readdirSync, type Dirent } from "node:fs";
import path from "node:path";
import { isGitDirectoryName } from "../filesystem/index.js";
import { SandboxContentError } from "./sandbox-errors.js";

/** Why a workspace-relative, `/`-separated path is loaded or run later; else undefined. */
export type LoadedLaterClassifier = (relativePath: string) => string | undefined;

const NESTED_DEPTH = 4;
const DIRECTORY_BUDGET = 8192;
const UNSCANNED = new Set(["node_modules"]);
/** A name no entry of the list has: a folder whose every file is loaded later answers for it. */
const ANY_FILE = "\u0000any";

export interface LoadedLaterEntry {
  /** Absolute path of the file or folder. */
  readonly path: string;
  readonly reason: string;
}

/** The loaded-later files and folders that exist in `workspace` (its real path) now. */
export function loadedLaterEntries(
  workspace: string,
  classify: LoadedLaterClassifier,
): LoadedLaterEntry[] {
  const found: LoadedLaterEntry[] = [];
  let level = [""];
  let budget = DIRECTORY_BUDGET;
  for (let depth = 0; depth <= NESTED_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const relative of level) {
      if (budget === 0) throw scanLimit();
      budget -= 1;
      for (const entry of listDirectory(path.join(workspace, relative))) {
        const name = relative === "" ? entry.name : `${relative}/${entry.name}`;
        if (entry.isSymbolicLink() || isGitDirectoryName(entry.name)) continue;
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

/**
 * A note for each loaded-later file or folder in `workspace` now that was not there `before`:
 * the command made it. A command that made too many folders to look through is named too.
 */
export function madeDuringCommand(
  workspace: string,
  classify: LoadedLaterClassifier,
  before: readonly LoadedLaterEntry[],
): string[] {
  let after: LoadedLaterEntry[];
  try {
    after = loadedLaterEntries(workspace, classify);
  } catch (error) {
    if (!(error instanceof SandboxContentError)) throw error;
    return [
      `warning: after this command the workspace holds more than ${String(DIRECTORY_BUDGET)} ` +
        `directories within ${String(NESTED_DEPTH)} levels, too many to tell whether it created ` +
        `a file a later session, an editor or CI loads (AGENTS.md, .github/, .vscode/, ...): check them`,
    ];
  }
  const known = new Set(before.map((entry) => entry.path));
  return after
    .filter((entry) => !known.has(entry.path))
    .map(
      (entry) =>
        `warning: ${entry.path} was created during this command; ${entry.reason}, and no one ` +
        `was asked about it: check it before then`,
    );
}

function listDirectory(directory: string): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
}

function scanLimit(): SandboxContentError {
  return new SandboxContentError(
    `The sandbox refuses to run this command: the workspace holds more than ` +
      `${String(DIRECTORY_BUDGET)} directories within ${String(NESTED_DEPTH)} levels, too many ` +
      `to keep every file a later session, an editor or CI loads read-only; run the agent in a ` +
      `smaller directory, or run with --sandbox off`,
  );
}
