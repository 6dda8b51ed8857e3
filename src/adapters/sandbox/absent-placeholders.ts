/**
 * A protected file that does not exist yet (a dangling `~/.gitconfig -> workspace/gitconfig`, a
 * `lefthook-local.yml` git's config names but nobody made) must not be created by a command: the
 * host would load it later. A bind needs something to mount on, and bwrap would create a missing
 * target in the writable workspace itself, following whatever a command left there. So:
 *
 * - one whose nearest existing folder lies strictly inside the workspace is covered by that folder,
 *   bound read-only (`scripts/` for a missing `scripts/fsmonitor.sh`);
 * - one whose nearest existing folder is the workspace itself gets a placeholder: the harness
 *   makes an empty regular file at its first missing name (never following a link, never over
 *   anything), binds it read-only for the command (which can then neither write it, nor remove or
 *   rename it: it is a mount point), and removes it again once the command has ended, if it is
 *   still the very file it made. A harness killed during the command leaves that empty file;
 *   the next command then binds it read-only as it is.
 *
 * After the command each protected path is checked again: one that now exists is named in the
 * result, so nothing created behind the sandbox's back goes unsaid.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, unlinkSync } from "node:fs";
import path from "node:path";
import { errorCode, isWithinRoot } from "../filesystem/index.js";
import { SandboxContentError } from "./sandbox-errors.js";

/** What one command needs for the protected paths that do not exist. */
export interface AbsentCoverage {
  /** Existing files or folders inside the workspace to bind read-only. */
  readonly readOnly: readonly string[];
  /** Names directly in the workspace to hold with a placeholder during the command. */
  readonly placeholders: readonly string[];
  /** The protected paths that did not exist before the command, to check after it. */
  readonly absent: readonly string[];
}

/** How `paths` (real paths inside `workspace`) are kept as they are for the next command. */
export function absentCoverage(workspace: string, paths: readonly string[]): AbsentCoverage {
  const readOnly = new Set<string>();
  const placeholders = new Set<string>();
  const absent: string[] = [];
  for (const protectedPath of paths) {
    if (!isWithinRoot(workspace, protectedPath) || protectedPath === workspace) continue;
    const existing = nearestExisting(workspace, protectedPath);
    if (existing.kind === "link") {
      throw new SandboxContentError(
        `The sandbox refuses to run this command: ${existing.path} is a symbolic link on the way ` +
          `to ${protectedPath}, which the host loads or runs later and which must not be created; ` +
          `a bind would follow the link. Remove the link, or run with --sandbox off`,
      );
    }
    if (existing.path !== protectedPath) absent.push(protectedPath);
    if (existing.path !== workspace) {
      readOnly.add(existing.path);
      continue;
    }
    const [first = ""] = path.relative(workspace, protectedPath).split(path.sep);
    placeholders.add(path.join(workspace, first));
  }
  return { readOnly: [...readOnly], placeholders: [...placeholders], absent };
}

/** A placeholder the harness made: removed only if it is still that file. */
export interface MadePlaceholder {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/** Makes each placeholder, an empty file; throws SandboxContentError if one cannot be made. */
export function makePlaceholders(paths: readonly string[]): MadePlaceholder[] {
  const made: MadePlaceholder[] = [];
  try {
    for (const placeholder of paths) made.push(makeOne(placeholder));
  } catch (error) {
    removePlaceholders(made);
    throw error;
  }
  return made;
}

function makeOne(placeholder: string): MadePlaceholder {
  let fd: number;
  try {
    fd = openSync(
      placeholder,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o644,
    );
  } catch (error) {
    throw new SandboxContentError(
      `The sandbox refuses to run this command: it could not hold ${placeholder} empty and ` +
        `read-only (${errorCode(error) ?? "error"}), and a command could create it there, where ` +
        `the host loads or runs it later; run with --sandbox off to run it anyway`,
    );
  }
  try {
    const stats = fstatSync(fd);
    return { path: placeholder, dev: stats.dev, ino: stats.ino };
  } finally {
    closeSync(fd);
  }
}

/** Removes what the harness made; returns a note for each it left because it changed. */
export function removePlaceholders(made: readonly MadePlaceholder[]): string[] {
  const notes: string[] = [];
  for (const placeholder of made) {
    const stats = lstatSync(placeholder.path, { throwIfNoEntry: false });
    if (stats === undefined) continue;
    if (
      stats.isFile() &&
      stats.size === 0 &&
      stats.dev === placeholder.dev &&
      stats.ino === placeholder.ino
    ) {
      try {
        unlinkSync(placeholder.path);
        continue;
      } catch {
        // named below
      }
    }
    notes.push(
      `warning: ${placeholder.path} is not the empty placeholder the harness made there, so it ` +
        `was left as it is; the host loads or runs what is there later: check it`,
    );
  }
  return notes;
}

/** A note for each protected path a command created: it did not exist before. */
export function createdDuringCommand(absent: readonly string[]): string[] {
  return absent
    .filter((protectedPath) => lstatSync(protectedPath, { throwIfNoEntry: false }) !== undefined)
    .map(
      (protectedPath) =>
        `warning: ${protectedPath} was created during this command; the host loads or runs it ` +
        `later (a shell start-up file, git or harness config, a program): check it before then`,
    );
}

interface Existing {
  readonly kind: "entry" | "link";
  readonly path: string;
}

/** `target` or its nearest existing ancestor up to `workspace`; a link on the way stops it. */
function nearestExisting(workspace: string, target: string): Existing {
  for (let current = target; ; current = path.dirname(current)) {
    if (current === workspace || !isWithinRoot(workspace, current)) {
      return { kind: "entry", path: workspace };
    }
    let stats;
    try {
      stats = lstatSync(current, { throwIfNoEntry: false });
    } catch {
      stats = undefined; // a file on the way (ENOTDIR): the nearer entry decides
    }
    if (stats === undefined) continue;
    if (stats.isSymbolicLink()) return { kind: "link", path: current };
    return { kind: "entry", path: current };
  }
}
