/**
 * The state directory's missing parents, made one at a time. Node's `mkdir -p`
 * (`mkdirSync(…, { recursive: true })`) loops for ever on some file systems: under /proc it gets
 * ENOENT for the directory, EEXIST for its parent, and tries again. Here the nearest existing
 * ancestor is found with lstat (at most one step per component of the path), and below it each
 * directory is made once; the first that cannot be is the answer.
 */
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { errorCode } from "../filesystem/index.js";

/** The path split where it stops existing: its nearest existing ancestor (or itself), and the rest. */
export interface DirectoryChain {
  readonly existing: string;
  /** Names below `existing`, outermost first; empty when the path exists. */
  readonly missing: readonly string[];
}

/** A directory of the chain that could not be made or looked at, and why. */
export class DirectoryChainError extends Error {
  override readonly name = "DirectoryChainError";
  constructor(
    /** lstat (or realpath) failed on `path`, or its mkdir did. */
    readonly step: "inspect" | "create",
    readonly path: string,
    readonly code: string,
  ) {
    super(`cannot ${step} ${path} (${code})`);
  }
}

export function directoryChain(path: string): DirectoryChain {
  const missing: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      lstatSync(current);
      return { existing: current, missing };
    } catch (error) {
      const code = errorCode(error) ?? "error";
      // The root always exists; a path whose root cannot be read cannot be made either.
      if (code !== "ENOENT" || dirname(current) === current) {
        throw new DirectoryChainError("inspect", current, code);
      }
      missing.unshift(basename(current));
    }
  }
}

/** The real path `path` will have once made: the existing part resolved, the rest as written. */
export function plannedRealPath(chain: DirectoryChain): string {
  let existing: string;
  try {
    existing = realpathSync(chain.existing);
  } catch (error) {
    throw new DirectoryChainError("inspect", chain.existing, errorCode(error) ?? "error");
  }
  return join(existing, ...chain.missing);
}

/** Makes each missing directory (with `mode`), outermost first; one made meanwhile is fine. */
export function makeDirectoryChain(chain: DirectoryChain, mode: number): void {
  let current = chain.existing;
  for (const name of chain.missing) {
    current = join(current, name);
    try {
      mkdirSync(current, { mode });
    } catch (error) {
      const code = errorCode(error) ?? "error";
      if (code !== "EEXIST") throw new DirectoryChainError("create", current, code);
    }
  }
}
