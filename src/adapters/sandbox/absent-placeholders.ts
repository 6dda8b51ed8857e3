/**
 * A protected file that does not exist yet (a dangling `~/.gitconfig -> workspace/gitconfig`, a
 * `lefthook-local.yml` git's config names but nobody made) must not be created by a command: the
 * host would load it later. A bind needs something to mount on, and bwrap would create a missing
 * target in the writable workspace itself, following whatever a command left there. So:
 *
 * - one whose nearest existing folder lies strictly inside the workspace is covered by that folder,
 *   bound read-only (`scripts/` for a missing `scripts/fsmonitor.sh`);
 * - one whose nearest existing folder is the workspace itself gets a placeholder: the harness
 *   makes an empty regular file at its first missing name (an empty directory for `.git`:
 *   placeholder-shape.ts; never following a link, never over anything), binds it read-only for
 *   the command (which can then neither write it, nor remove or rename it: it is a mount point).
 *   Runs in one workspace share a ledger of these
 *   (placeholder-ledger.ts): one that finds a placeholder another run made holds it too, and the
 *   last run to let it go removes it, if it is still the very file that was made. Removing it
 *   while another run's command has it bound would detach that bind and let the command create
 *   the file. A harness killed during the command leaves that empty file; the next run holds
 *   it and removes it in turn.
 *
 * After the command each protected path is compared with what it was before
 * (protected-identity.ts): one that was created, changed or removed is named in the result, so
 * nothing done behind the sandbox's back goes unsaid.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  rmdirSync,
  unlinkSync,
  type Stats,
} from "node:fs";
import path from "node:path";
import { errorCode, isWithinRoot } from "../filesystem/index.js";
import type { LedgerEntries, PlaceholderLedger } from "./placeholder-ledger.js";
import { hasPlaceholderShape, isDirectoryPlaceholder } from "./placeholder-shape.js";
import { changedNotes, identitiesOf } from "./protected-identity.js";
import { SandboxContentError } from "./sandbox-errors.js";

/** What one command needs for the protected paths that do not exist. */
export interface AbsentCoverage {
  /** Existing files or folders inside the workspace to bind read-only (with the placeholders). */
  readonly readOnly: readonly string[];
  /** Names directly in the workspace to hold with a placeholder during the command. */
  readonly placeholders: readonly string[];
  /** The protected paths that did not exist before the command. */
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

/**
 * The entries of `readOnly` (absentCoverage's) right in the workspace that are an empty file: a
 * placeholder another run may hold, which this run then holds too (holdPlaceholders), so that
 * the other run does not remove it while this run's command has it bound.
 */
export function emptyAtRoot(workspace: string, readOnly: readonly string[]): string[] {
  return readOnly.filter((entry) => {
    if (path.dirname(entry) !== workspace) return false;
    const stats = lstatSync(entry, { throwIfNoEntry: false });
    return stats !== undefined && hasPlaceholderShape(entry, stats);
  });
}

/** A placeholder this run holds: made by it or by another run, removed by the last to let go. */
export interface HeldPlaceholder {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/** What `makePlaceholders` made. */
export type MadePlaceholder = HeldPlaceholder;

/**
 * Holds each name: makes an empty file where nothing is, or joins the holders of a placeholder
 * another run made; an empty file no run made (the person's) is left as it is and bound as it is.
 * Throws SandboxContentError if a name cannot be held.
 */
export function holdPlaceholders(
  ledger: PlaceholderLedger,
  names: readonly string[],
  whileLocked: (entries: LedgerEntries) => void = () => undefined,
): HeldPlaceholder[] {
  return ledger.update((entries) => {
    const held: HeldPlaceholder[] = [];
    try {
      for (const name of names) {
        const entry = entries.get(name);
        const stats = lstatSync(name, { throwIfNoEntry: false });
        if (entry !== undefined && stats !== undefined && isPlaceholder(name, stats, entry)) {
          entry.holders.push(ledger.holder);
          held.push({ path: name, dev: entry.dev, ino: entry.ino });
          continue;
        }
        // What the ledger knew there is gone or became something else: it holds nothing now.
        entries.delete(name);
        // An empty file (or `.git` directory) no run here made (the person's, or held by a run
        // outside this ledger) is bound as it is; anything else that appeared since the plan
        // refuses the command.
        if (stats !== undefined && hasPlaceholderShape(name, stats)) continue;
        const made = makeOne(name);
        entries.set(name, { dev: made.dev, ino: made.ino, holders: [ledger.holder] });
        held.push(made);
      }
    } catch (error) {
      letGo(entries, ledger.holder, held);
      throw error;
    }
    whileLocked(entries);
    return held;
  });
}

function makeOne(placeholder: string): HeldPlaceholder {
  let fd: number;
  try {
    fd = isDirectoryPlaceholder(placeholder)
      ? openMadeDirectory(placeholder)
      : openSync(
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

/**
 * Makes an empty directory (mkdir never follows a link nor makes over anything) and opens it
 * without following a link, so its identity is the directory's own even if the name changed.
 */
function openMadeDirectory(placeholder: string): number {
  mkdirSync(placeholder, 0o755);
  try {
    return openSync(
      placeholder,
      constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch (error) {
    rmdirSync(placeholder);
    throw error;
  }
}

/**
 * Lets go of what this run held; a placeholder no run holds any more is removed if it is still
 * the empty file that was made. Returns a note for each that changed, which is left as it is.
 */
export function releasePlaceholders(
  ledger: PlaceholderLedger,
  held: readonly HeldPlaceholder[],
  whileLocked: (entries: LedgerEntries) => void = () => undefined,
): string[] {
  return ledger.update((entries) => {
    whileLocked(entries);
    return letGo(entries, ledger.holder, held);
  });
}

function letGo(entries: LedgerEntries, holder: string, held: readonly HeldPlaceholder[]): string[] {
  const notes: string[] = [];
  for (const placeholder of held) {
    const entry = entries.get(placeholder.path);
    if (entry !== undefined) {
      // Another run's placeholder there now: this one went, and that one is not ours to remove.
      if (entry.dev !== placeholder.dev || entry.ino !== placeholder.ino) continue;
      const index = entry.holders.indexOf(holder);
      if (index >= 0) entry.holders.splice(index, 1);
      if (entry.holders.length > 0) continue; // another run's command may have it bound
      entries.delete(placeholder.path);
    }
    const stats = lstatSync(placeholder.path, { throwIfNoEntry: false });
    if (stats === undefined) continue;
    if (isPlaceholder(placeholder.path, stats, placeholder)) {
      try {
        // rmdir removes only an empty directory: one a command filled in the meantime stays.
        if (stats.isDirectory()) rmdirSync(placeholder.path);
        else unlinkSync(placeholder.path);
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

function isPlaceholder(
  name: string,
  stats: Stats,
  made: { readonly dev: number; readonly ino: number },
): boolean {
  return stats.dev === made.dev && stats.ino === made.ino && hasPlaceholderShape(name, stats);
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

/**
 * The same without a ledger, for one run alone: makes each placeholder (an empty file), or throws
 * SandboxContentError if one cannot be made. A runner holds its placeholders through a ledger.
 */
export function makePlaceholders(paths: readonly string[]): HeldPlaceholder[] {
  const made: HeldPlaceholder[] = [];
  try {
    for (const placeholder of paths) made.push(makeOne(placeholder));
  } catch (error) {
    removePlaceholders(made);
    throw error;
  }
  return made;
}

/** Removes what `makePlaceholders` made; a note for each it left because it changed. */
export function removePlaceholders(made: readonly HeldPlaceholder[]): string[] {
  return letGo(new Map(), "", made);
}

/** A note for each protected path that exists now though it did not before the command. */
export function createdDuringCommand(absent: readonly string[]): string[] {
  const before = new Map(absent.map((protectedPath) => [protectedPath, undefined]));
  return changedNotes(before, identitiesOf(absent, new Map()));
}
