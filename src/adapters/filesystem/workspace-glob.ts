/**
 * Walks the workspace for a glob. It never follows a symlinked directory (so link loops cannot
 * trap it), never enters or lists `.git` under any of its aliases, and prunes every directory the
 * pattern cannot match below, so a pattern that starts with `src/` reads only `src`. A
 * `node_modules` directory is entered only when the pattern names it: otherwise a project's
 * dependencies fill the 1000 paths and its own files are never shown.
 *
 * Two ways to list a directory (`DirectoryListing`):
 * - `held` (the default): through a descriptor opened without following links and proved to be
 *   at the path expected (held-listing.ts), so a directory that a process still running swaps
 *   for a link mid-walk is not listed. Four calls per directory, made directly in slices.
 *   Without /proc (macOS, Windows) it lists by path too: see held-listing.ts.
 * - `by-path`: one callback `readdir` per directory, every directory in flight at once (the
 *   thread pool is the real cap). `readdir(path)` follows a link anywhere on the path, so this is
 *   only for when no process the agent started can be running beside the walk: every command ran
 *   in the sandbox, whose processes all end with their call. About half the time of `held`.
 *   A directory that is the only one left to read (the workspace root; `src` below it for
 *   `src/**`) is read directly instead: nothing could run beside it in the pool, and
 *   a pool round trip costs more than the read, on the walk's critical path.
 *
 * Built for speed: the `.git` name test is a two-character pre-check for most names,
 * and there is no sort of the whole result: each directory's matches are kept in order as they
 * are read (see `Listing`), and the tree is read out once at the end, only as far as the cap.
 */
import { readdir, readdirSync, type Dirent } from "node:fs";
import { sep } from "node:path";
import type { GlobResult } from "../../core/ports/filesystem.js";
import { withheldPaths } from "../../core/policy/path-globs.js";
import { isGitDirectoryName } from "./git-names.js";
import type { GlobPattern, GlobState } from "./glob-pattern.js";
import { heldDirectoryLister } from "./held-listing.js";

export type DirectoryListing = "held" | "by-path";

/** How long one turn of the `held` walk may hold the event loop. */
const SLICE_MS = 20;

/**
 * One directory's matches: file names, and the listings of the subdirectories walked, in the order
 * their paths sort (code units, the default sort: the same on every machine, unlike a locale-aware
 * one). A subdirectory sorts as its name plus `/`, because that is how its paths begin: `a-b`
 * comes before everything in `a/`, since `-` is below `/`. So reading the listings depth-first
 * gives exactly the sorted list of whole paths, with no sort of whole paths.
 */
interface Listing {
  /** The directory's workspace-relative path with a trailing `/`, or "" for the root. */
  readonly base: string;
  /** How it sorts among its siblings: its name and `/`. */
  readonly key: string;
  readonly entries: (string | Listing)[];
}

const DEPENDENCY_DIRECTORY = "node_modules";

/** `root` must be the workspace's real path. Lists files and symlinks; directories are walked. */
export function globWorkspace(
  root: string,
  pattern: GlobPattern,
  maxResults: number,
  listing: DirectoryListing = "held",
  withheld: readonly string[] = [],
): Promise<GlobResult> {
  const isWithheld = withheldPaths(withheld);
  return new Promise((resolve, reject) => {
    const searchesDependencies = pattern.namesLiterally(DEPENDENCY_DIRECTORY);
    let unsearched = 0;
    let pending = 0;
    let matched = 0;
    let failed = false;

    /**
     * One directory's read is over. `entries` undefined without an error: what is at the path
     * now is not the directory the walk saw (swapped for a link, or moved), so nothing is listed.
     */
    const listed = (
      prefix: string,
      into: Listing,
      state: GlobState,
      entries: readonly Dirent[] | undefined,
      error: Error | null,
    ): void => {
      pending -= 1;
      if (failed) return;
      if (error !== null) {
        // The root must be readable; a subdirectory that vanished or is unreadable is skipped.
        if (into === top) {
          failed = true;
          reject(error);
          return;
        }
      } else if (entries !== undefined) {
        visit(prefix, into, state, entries);
      } else if (into === top) {
        // Not the directory asked for: an empty answer would read as "no files match".
        failed = true;
        reject(new Error(`the workspace ${root} was moved or replaced while glob listed it`));
        return;
      }
      if (pending === 0) {
        const paths: string[] = [];
        readOut(top, paths, maxResults);
        resolve({
          paths,
          omitted: matched - paths.length,
          ...(unsearched === 0 ? {} : { unsearchedDependencyDirectories: unsearched }),
        });
      }
    };

    /** `prefix` is the directory's absolute path with a trailing separator. */
    const readByPath = (prefix: string, into: Listing, state: GlobState): void => {
      pending += 1;
      readdir(prefix, { withFileTypes: true }, (error, entries) => {
        listed(prefix, into, state, error === null ? entries : undefined, error);
        // A lone directory this listing found waits in the queue for this thread.
        if (!failed && queue.length > 0) work();
      });
    };

    const list =
      listing === "held"
        ? heldDirectoryLister()
        : (path: string) => readdirSync(path, { withFileTypes: true });
    const queue: [string, Listing, GlobState][] = [];
    /** Read by `work`, on this thread: every `held` directory, a lone `by-path` one. */
    const readHere = (prefix: string, into: Listing, state: GlobState): void => {
      pending += 1;
      queue.push([prefix, into, state]);
    };
    /** Lists for at most SLICE_MS, then lets the event loop run before going on. */
    const work = (): void => {
      const until = performance.now() + SLICE_MS;
      for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
        const [prefix, into, state] = next;
        let entries: Dirent[] | undefined;
        let error: Error | null = null;
        try {
          entries = list(prefix);
        } catch (thrown) {
          error = thrown instanceof Error ? thrown : new Error("the directory could not be listed");
        }
        listed(prefix, into, state, entries, error);
        if (failed) return;
        if (performance.now() >= until && queue.length > 0) {
          setImmediate(work);
          return;
        }
      }
    };

    const visit = (
      prefix: string,
      into: Listing,
      state: GlobState,
      entries: readonly Dirent[],
    ): void => {
      const kept = into.entries;
      // By path, the first subdirectory waits until a second shows it is not alone (below).
      let first: [string, Listing, GlobState] | undefined;
      let subdirectories = 0;
      // Whether `kept` is still in order (readdir's order is the filesystem's own: ext4 returns
      // names in hash order), so only a listing out of order is sorted.
      let ordered = true;
      let lastKey = "";
      for (const entry of entries) {
        const name = entry.name;
        if (isGitDirectoryName(name)) continue;
        // Neither listed nor counted: the person's rules keep it from every search.
        if (isWithheld(into.base + name)) continue;
        const next = pattern.step(state, name);
        if (next.length === 0) continue;
        let key: string;
        // Dirent types come from lstat semantics: a symlinked directory is a link, not a directory.
        if (entry.isDirectory()) {
          if (!pattern.canMatchBelow(next)) continue;
          if (name === DEPENDENCY_DIRECTORY && !searchesDependencies) {
            unsearched += 1;
            continue;
          }
          key = `${name}/`;
          const child: Listing = { base: into.base + key, key, entries: [] };
          kept.push(child);
          subdirectories += 1;
          const path = prefix + name + sep;
          if (listing === "held") readHere(path, child, next);
          else if (subdirectories === 1) first = [path, child, next];
          else {
            if (subdirectories === 2 && first !== undefined) readByPath(...first);
            readByPath(path, child, next);
          }
        } else if (pattern.accepts(next)) {
          kept.push(name);
          matched += 1;
          key = name;
        } else {
          continue;
        }
        if (key < lastKey) ordered = false;
        lastKey = key;
      }
      if (!ordered) sortByKey(kept);
      // By path, a lone directory with nothing else in flight is read here: in the pool it would
      // wait for a thread to wake, with nothing to overlap that wait.
      if (subdirectories === 1 && first !== undefined) {
        (pending === 0 ? readHere : readByPath)(...first);
      }
    };

    const top: Listing = { base: "", key: "", entries: [] };
    readHere(root.endsWith(sep) ? root : root + sep, top, pattern.initial);
    work();
  });
}

function sortKey(entry: string | Listing): string {
  return typeof entry === "string" ? entry : entry.key;
}

/** Most listings keep a handful of entries: sorted in place by insertion, nothing allocated. */
const INSERTION_SORT_MAX = 16;

/** Reorders `entries` in place by their sort keys (code-unit order, keys unique). */
function sortByKey(entries: (string | Listing)[]): void {
  if (entries.length > INSERTION_SORT_MAX) {
    entries.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
    return;
  }
  for (let index = 1; index < entries.length; index += 1) {
    const entry = entries[index];
    if (entry === undefined) continue;
    const key = sortKey(entry);
    let at = index;
    while (at > 0) {
      const before = entries[at - 1];
      if (before === undefined || sortKey(before) < key) break;
      entries[at] = before;
      at -= 1;
    }
    entries[at] = entry;
  }
}

/** Appends the whole paths under `listing`, depth-first, until `paths` holds `limit`. */
function readOut(listing: Listing, paths: string[], limit: number): void {
  for (const entry of listing.entries) {
    if (paths.length >= limit) return;
    if (typeof entry === "string") paths.push(listing.base + entry);
    else readOut(entry, paths, limit);
  }
}
