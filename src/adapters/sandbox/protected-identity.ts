/**
 * What each protected path inside the workspace is before a command, to compare after it. A bind
 * keeps a command from changing it, but a bind can be taken away from outside the command (another
 * run, or the person, unlinking the file it is mounted on detaches it): whatever happened, a path
 * the host loads or runs later that is not what it was is named in the command's result.
 */
import { lstatSync, type BigIntStats } from "node:fs";
import type { LedgerEntries } from "./placeholder-ledger.js";
import { hasPlaceholderShape } from "./placeholder-shape.js";

/** A path's identity, or undefined for one that is not there (or is only a placeholder). */
export type Identity = string | undefined;

export type Identities = ReadonlyMap<string, Identity>;

/**
 * Each path's identity: its kind, device, inode, size and change times. A placeholder in the
 * ledger (an empty file, or `.git` directory, some run holds a name with) counts as absent: it comes and goes with the
 * runs, and empty, it changes nothing the host loads.
 */
export function identitiesOf(paths: readonly string[], placeholders: LedgerEntries): Identities {
  const identities = new Map<string, Identity>();
  for (const protectedPath of new Set(paths)) {
    identities.set(protectedPath, identityOf(protectedPath, placeholders));
  }
  return identities;
}

/** A note for each path whose identity changed between `before` and `after`. */
export function changedNotes(before: Identities, after: Identities): string[] {
  const notes: string[] = [];
  for (const [protectedPath, was] of before) {
    const now = after.get(protectedPath);
    if (was === now) continue;
    const what =
      was === undefined ? "created" : now === undefined ? "removed" : "changed or replaced";
    notes.push(
      `warning: ${protectedPath} was ${what} during this command; the host loads or runs it ` +
        `later (a shell start-up file, git or harness config, a program): check it before then`,
    );
  }
  return notes;
}

function identityOf(protectedPath: string, placeholders: LedgerEntries): Identity {
  let stats: BigIntStats | undefined;
  try {
    stats = lstatSync(protectedPath, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined; // a file on the way (ENOTDIR): not there
  }
  if (stats === undefined) return undefined;
  const entry = placeholders.get(protectedPath);
  if (
    entry !== undefined &&
    stats.dev === BigInt(entry.dev) &&
    stats.ino === BigInt(entry.ino) &&
    hasPlaceholderShape(protectedPath, stats)
  ) {
    return undefined;
  }
  const kind = stats.isFile()
    ? "file"
    : stats.isDirectory()
      ? "directory"
      : stats.isSymbolicLink()
        ? "link"
        : "other";
  return [kind, stats.dev, stats.ino, stats.size, stats.mtimeNs, stats.ctimeNs, stats.mode].join(
    ":",
  );
}
