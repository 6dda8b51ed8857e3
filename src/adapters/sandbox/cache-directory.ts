import { lstatSync, mkdirSync, mkdtempSync, type Stats } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { errorCode } from "../filesystem/index.js";

export interface PreparedCache {
  /** Real path of the directory bound writable at SANDBOX_CACHE in every sandboxed command. */
  readonly directory: string;
  /** Set when the asked-for directory could not be used: said to the person once, at start. */
  readonly notice?: string;
}

/**
 * The per-workspace package cache (under the harness's state directory, which commands cannot
 * otherwise see), made owner-only if missing. bwrap would follow a symbolic link and bind
 * whatever it names writable; a FIFO or a directory someone else owns is not ours to fill: each
 * is left alone and a fresh private directory under the temp directory is used for this run.
 */
export function prepareCacheDirectory(
  wanted: string,
  uid: number | undefined = process.getuid?.(),
): PreparedCache {
  const problem = cacheProblem(wanted, uid);
  if (problem === undefined) return { directory: wanted };
  const fresh = mkdtempSync(path.join(tmpdir(), "agent-sandbox-cache-"));
  return {
    directory: fresh,
    notice: `the sandbox cache ${wanted} ${problem}; it is not used, this run caches in ${fresh}`,
  };
}

function cacheProblem(wanted: string, uid: number | undefined): string | undefined {
  try {
    mkdirSync(wanted, { mode: 0o700 });
  } catch (error) {
    if (errorCode(error) !== "EEXIST") return `cannot be created (${errorCode(error) ?? "error"})`;
  }
  let stats: Stats;
  try {
    stats = lstatSync(wanted);
  } catch (error) {
    return `cannot be read (${errorCode(error) ?? "error"})`;
  }
  if (stats.isSymbolicLink()) return "is a symbolic link";
  if (!stats.isDirectory()) return "is not a directory";
  if (uid !== undefined && stats.uid !== uid) return `is owned by another user (uid ${stats.uid})`;
  return undefined;
}
