/**
 * The git delegation scan (git-delegated-paths.ts) kept between write decisions. In a
 * repository it reads the system, global and repository configs, their includes, the hooks
 * directory and each hook at every write: 150–400 µs here, ten times the rest of the decision.
 *
 * What is kept is each repository's scan as the config names the paths, with a fingerprint of
 * every file and directory it read (device, inode, mode, size, modification and change times, of
 * the name and, for a link, of what it leads to). The next decision compares the fingerprints
 * first, one lstat each, and scans again when any differs: a command run between two decisions
 * may well change `.git/config` (`git config core.hooksPath …`, `npx husky`, an editor). Which
 * repositories there are is looked up at every decision, and the named paths are resolved at
 * every decision too (`resolveDelegatedPaths`): a link planted since moves where they are.
 *
 * Timestamps are only as fine as the filesystem's clock (a few ms, 2 s on FAT), so a change made
 * in the same tick as the file's last one could leave the fingerprint as it was. As git does
 * for its index ("racy git"), a scan is kept only when every input last changed at least
 * RACY_MARGIN_MS before the scan began; anything more recent is scanned again next time.
 */
import { lstatSync, statSync, type Stats } from "node:fs";
import {
  defaultDelegationContext,
  namedDelegatedPaths,
  repositoriesAround,
  resolveDelegatedPaths,
  type GitDelegatedPath,
  type GitRepositoryLocation,
} from "./git-delegated-paths.js";
import { lstatNow, type Lstat } from "./lstat-once.js";

/** Coarser than any filesystem clock the harness meets (FAT's 2 s included). */
export const RACY_MARGIN_MS = 3000;

/** What one input looked like when it was read. */
export interface Fingerprint {
  /** Identity and times, or how it was missing: equal text, same file as far as stat can tell. */
  readonly text: string;
  /** The latest modification or change time seen (-Infinity when nothing is there). */
  readonly changedAt: number;
}

interface KeptScan {
  readonly inputs: readonly { readonly path: string; readonly fingerprint: Fingerprint }[];
  readonly named: readonly GitDelegatedPath[];
}

export interface GitDelegationCacheOptions {
  /** Milliseconds since the epoch, the clock file times are in; injected by tests. */
  readonly now?: () => number;
  /** The scan itself; tests count its calls. */
  readonly scan?: typeof namedDelegatedPaths;
}

/** One per write boundary (one per run): no state outside the object that owns it. */
export class GitDelegationCache {
  readonly #kept = new Map<string, KeptScan>();
  readonly #now: () => number;
  readonly #scan: typeof namedDelegatedPaths;

  constructor(options: GitDelegationCacheOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#scan = options.scan ?? namedDelegatedPaths;
  }

  /** `gitDelegatedPathsAround`, scanning a repository's config again only when it changed. */
  readonly around = (directory: string, lstat: Lstat = lstatNow): GitDelegatedPath[] => {
    const repositories = repositoriesAround(directory, lstat);
    if (repositories.length === 0) return [];
    return repositories.flatMap((repository) => resolveDelegatedPaths(this.#named(repository)));
  };

  #named(repository: GitRepositoryLocation): readonly GitDelegatedPath[] {
    // Read from the environment at each use, as the uncached scan does.
    const context = defaultDelegationContext();
    const key = JSON.stringify([repository.gitDir, repository.worktree ?? null, context]);
    const kept = this.#kept.get(key);
    const unchanged = kept?.inputs.every(
      ({ path, fingerprint }) => fingerprintOf(path).text === fingerprint.text,
    );
    if (kept !== undefined && unchanged === true) return kept.named;
    const startedAt = this.#now();
    const read = new Set<string>();
    const named = this.#scan(repository, context, (path) => read.add(path));
    // Taken after the scan: a change since it began is recent, and so never kept.
    const inputs = [...read].map((path) => ({ path, fingerprint: fingerprintOf(path) }));
    if (inputs.every(({ fingerprint }) => settledBefore(fingerprint, startedAt))) {
      this.#kept.set(key, { inputs, named });
    } else {
      this.#kept.delete(key);
    }
    return named;
  }
}

/** Whether `fingerprint` last changed safely before `startedAt` (see RACY_MARGIN_MS). */
export function settledBefore(fingerprint: Fingerprint, startedAt: number): boolean {
  return fingerprint.changedAt < startedAt - RACY_MARGIN_MS;
}

/** The name itself (lstat) and, for a link, what it leads to now (stat). Never throws. */
export function fingerprintOf(path: string): Fingerprint {
  const own = statOrCode(() => lstatSync(path, { throwIfNoEntry: false }));
  if (typeof own === "string") return { text: own, changedAt: -Infinity };
  if (!own.isSymbolicLink()) return { text: describe(own), changedAt: latest(own) };
  const target = statOrCode(() => statSync(path, { throwIfNoEntry: false }));
  return typeof target === "string"
    ? { text: `${describe(own)} -> ${target}`, changedAt: latest(own) }
    : {
        text: `${describe(own)} -> ${describe(target)}`,
        changedAt: Math.max(latest(own), latest(target)),
      };
}

function statOrCode(look: () => Stats | undefined): Stats | string {
  try {
    return look() ?? "missing";
  } catch (error) {
    // ENOTDIR, EACCES, ELOOP…: as good as a fingerprint, since the scan saw the same.
    return error instanceof Error && "code" in error ? `error ${String(error.code)}` : "error";
  }
}

function describe(stats: Stats): string {
  return [stats.dev, stats.ino, stats.mode, stats.size, stats.mtimeMs, stats.ctimeMs].join(":");
}

function latest(stats: Stats): number {
  return Math.max(stats.mtimeMs, stats.ctimeMs);
}
