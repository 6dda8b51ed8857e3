/**
 * The layout of the harness's own directory: `.agent`, `.agent/outputs` and `.agent/.gitignore`,
 * made (owner-only) or found, held open, and later proved to be still what was made: each name
 * leads, without a link, to the same directory or file (dev/ino), and the `.gitignore` is a
 * regular file with one name. Whatever cannot be had is a DirectoryNotHeldError whose message
 * says why, for the refusal.
 */
import { closeSync, constants, fstatSync, lstatSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { errorCode } from "./fs-errors.js";
import { DirectoryNotHeldError, HeldDirectory } from "./held-directory.js";
import { isOpenedAt, openRegularFileSync, UnsafeFileError } from "./safe-open.js";

/** The harness-owned directory inside the workspace. */
export const HARNESS_DIRECTORY = ".agent";
/** Saved outputs, relative to the workspace, as the model names them. */
export const OUTPUTS_DIRECTORY = ".agent/outputs";
/** Everything the harness creates there: new, never through a link, never blocking. */
export const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

const GITIGNORE = ".gitignore";
// Chapter 4 reads a checked-in `.agent/commands.json`: everything else here stays out of commits.
const GITIGNORE_TEXT =
  "# Written by agent-harness: saved command outputs, never committed.\n" +
  "# commands.json, chapter 4's allowlist, is yours to commit.\n*\n!/commands.json\n";
const OWN = { shown: HARNESS_DIRECTORY, mode: 0o700 } as const;

/** `.agent`, `.agent/outputs` and `.agent/.gitignore`, as the harness made or checked them. */
export interface HeldStore {
  readonly agent: HeldDirectory;
  readonly outputs: HeldDirectory;
  readonly gitignore: Identity;
}

interface Identity {
  readonly dev: bigint;
  readonly ino: bigint;
}

/** What is wrong with a held store: something gone can be made again, something replaced not. */
export interface StoreProblem {
  readonly text: string;
  readonly gone: boolean;
}

/** Makes what is missing of the store at `realPath` (`<workspace>/.agent`) and holds it all. */
export function makeStore(realPath: string): HeldStore {
  const agent = HeldDirectory.make(dirname(realPath), HARNESS_DIRECTORY, OWN);
  try {
    const outputs = HeldDirectory.make(agent, "outputs", { shown: OUTPUTS_DIRECTORY, mode: 0o700 });
    try {
      return { agent, outputs, gitignore: holdGitignore(agent) };
    } catch (error) {
      outputs.close();
      throw error;
    }
  } catch (error) {
    agent.close();
    throw error;
  }
}

/**
 * `.agent/.gitignore`: written new, or an existing one kept; either way a regular file with one
 * name, at its place, whose identity later checks compare.
 */
function holdGitignore(agent: HeldDirectory): Identity {
  const shown = `${HARNESS_DIRECTORY}/${GITIGNORE}`;
  const path = join(agent.path, GITIGNORE);
  let fd: number;
  try {
    fd = openRegularFileSync(agent.entry(GITIGNORE), CREATE_NEW, {
      mode: 0o644,
      oneName: true,
    }).handle;
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw gitignoreProblem(shown, error);
    try {
      fd = openRegularFileSync(agent.entry(GITIGNORE), constants.O_RDONLY, {
        oneName: true,
      }).handle;
    } catch (existing) {
      throw gitignoreProblem(shown, existing);
    }
    return identityAt(fd, path, shown);
  }
  try {
    writeSync(fd, GITIGNORE_TEXT);
  } catch (error) {
    closeSync(fd);
    throw gitignoreProblem(shown, error);
  }
  return identityAt(fd, path, shown);
}

/** The identity of the file `fd` holds, if it is the one at `path`; closes `fd`. */
function identityAt(fd: number, path: string, shown: string): Identity {
  try {
    if (!isOpenedAt(fd, path))
      throw new DirectoryNotHeldError("moved", `${shown} is not where it should be`);
    const stats = fstatSync(fd, { bigint: true });
    return { dev: stats.dev, ino: stats.ino };
  } finally {
    closeSync(fd);
  }
}

function gitignoreProblem(shown: string, error: unknown): DirectoryNotHeldError {
  if (error instanceof UnsafeFileError) {
    return new DirectoryNotHeldError(
      "failed",
      error.unsafe.kind === "hard-links"
        ? `${shown} has ${String(error.unsafe.links)} hard links`
        : error.unsafe.kind === "symbolic-link"
          ? `${shown} is a symbolic link`
          : `${shown} is not a regular file`,
    );
  }
  switch (errorCode(error)) {
    case "ELOOP":
      return new DirectoryNotHeldError("symbolic-link", `${shown} is a symbolic link`);
    case "ENXIO":
    case "EISDIR":
      return new DirectoryNotHeldError("failed", `${shown} is not a regular file`);
    case undefined:
    default:
      return new DirectoryNotHeldError(
        "failed",
        `${shown} could not be written (${errorCode(error) ?? "error"})`,
      );
  }
}

/** Whether each name still leads to what was made, without a link; undefined when it does. */
export function heldProblem(held: HeldStore): StoreProblem | undefined {
  for (const [directory, shown] of [
    [held.agent, HARNESS_DIRECTORY],
    [held.outputs, OUTPUTS_DIRECTORY],
  ] as const) {
    if (directory.isStillAtPath()) continue;
    if (directory.isGone()) return { text: `${shown} was removed`, gone: true };
    return { text: `${shown} was replaced or moved since the harness made it`, gone: false };
  }
  const shown = `${HARNESS_DIRECTORY}/${GITIGNORE}`;
  let stats;
  try {
    stats = lstatSync(join(held.agent.path, GITIGNORE), { bigint: true });
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { text: `${shown} was removed`, gone: true };
    return { text: `${shown} cannot be checked (${errorCode(error) ?? "error"})`, gone: false };
  }
  if (!stats.isFile() || stats.dev !== held.gitignore.dev || stats.ino !== held.gitignore.ino) {
    return { text: `${shown} was replaced since the harness made it`, gone: false };
  }
  if (stats.nlink > 1n) {
    return { text: `${shown} has ${String(stats.nlink)} hard links`, gone: false };
  }
  return undefined;
}
