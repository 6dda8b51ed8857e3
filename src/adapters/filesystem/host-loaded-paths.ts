/**
 * Files and folders of the host that it loads or runs later (its shell start-up files, git's
 * global config, the harness's own settings, the folders on PATH), turned into the real paths the
 * workspace boundary compares with. A person's `~/.gitconfig` is often a link into a dotfiles
 * repository, so each named path counts twice: as named, and where its links lead, a link that
 * leads to a file not made yet included (creating that file would change what the host loads).
 */
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { linkText } from "./link-text.js";
import { isWithinRoot, MAX_SYMLINK_HOPS, type HostLoadedPath } from "./safe-path.js";

export interface NamedHostPath {
  /** Absolute path as the host names it (`/home/me/.gitconfig`). */
  readonly path: string;
  /** What it is and why it matters, for the refusal: `git's global config (~/.gitconfig)…`. */
  readonly why: string;
  /** A folder on PATH: each link in it leads to a program too, wherever it lies. */
  readonly programs?: boolean;
}

export type { HostFilesSource, HostLoadedPath } from "./safe-path.js";

/** Most links looked at in one PATH folder (a /usr/bin holds ~2,000 entries). */
const PROGRAM_LINK_LIMIT = 20_000;

/** Each named path as named and as its links resolve, once each. */
export function hostLoadedPaths(named: readonly NamedHostPath[]): HostLoadedPath[] {
  const found = new Map<string, string>();
  const add = (path: string, why: string): void => {
    if (!found.has(path)) found.set(path, why);
  };
  const leads = new LinkFollower();
  const scanned = new Set<string>();
  for (const entry of named) {
    if (!isAbsolute(entry.path)) continue;
    const path = resolve(entry.path);
    const real = whereItLeads(path);
    add(path, entry.why);
    add(real, entry.why);
    // A folder listed twice (merged /usr: /bin and /usr/bin) is scanned once.
    if (entry.programs === true && !scanned.has(real)) {
      scanned.add(real);
      for (const link of linksIn(path)) add(leads.from(link), `${entry.why} (${link} leads here)`);
    }
  }
  return [...found].map(([path, why]) => ({ path, why }));
}

/**
 * Where `path` leads: its real path when it exists; else the real path of its deepest existing
 * ancestor with the rest appended, following a dangling link at the end as a write would.
 */
export function whereItLeads(path: string): string {
  let candidate = resolve(path);
  for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop += 1) {
    try {
      return realpathSync.native(candidate);
    } catch {
      // missing, or a dangling link: worked out below
    }
    const parent = dirname(candidate);
    if (parent === candidate) return candidate;
    const realParent = whereItLeads(parent);
    const here = join(realParent, basename(candidate));
    const target = linkText(here);
    if (target === undefined) return here;
    candidate = resolve(realParent, target);
  }
  return candidate;
}

/**
 * What the sandbox binds read-only for `paths` (real paths) in `workspace`: each that exists as a
 * file or folder; for one not made yet, its nearest existing folder strictly inside the workspace
 * (a bind on the missing name would create it, on the host); one whose nearest folder is the
 * workspace itself is left to the file tools. One that holds the workspace is kept: all of it is
 * then read-only.
 */
export function sandboxCoverage(workspace: string, paths: readonly string[]): string[] {
  const covered = new Set<string>();
  for (const path of paths) {
    if (isWithinRoot(path, workspace)) {
      covered.add(path);
      continue;
    }
    for (let current = path; current !== workspace; current = dirname(current)) {
      if (!isWithinRoot(workspace, current) || dirname(current) === current) break;
      let stats;
      try {
        stats = lstatSync(current, { throwIfNoEntry: false });
      } catch {
        stats = undefined; // a file on the way (ENOTDIR): the nearer folder decides
      }
      if (stats === undefined) continue;
      // A link is never bound (the mount would follow it); where it leads is in the list already.
      if (stats.isFile() || stats.isDirectory()) covered.add(current);
      break;
    }
  }
  return [...covered];
}

/**
 * `whereItLeads` for the links of a PATH folder (a /usr/bin holds a thousand): a readlink per hop
 * and each folder's real path worked out once, instead of a full resolution per link.
 */
class LinkFollower {
  readonly #folders = new Map<string, string>();

  from(link: string): string {
    let candidate = link;
    for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop += 1) {
      const here = join(this.#realFolder(dirname(candidate)), basename(candidate));
      const target = linkText(here);
      if (target === undefined) return here;
      // A name in the same folder (`python3 -> python3.12`): the folder holds it, and if it is
      // a link in turn, the folder's listing follows it on its own.
      if (hop === 0 && !/[/\\]/u.test(target)) return dirname(here);
      candidate = resolve(dirname(here), target);
    }
    return candidate;
  }

  #realFolder(folder: string): string {
    let real = this.#folders.get(folder);
    if (real === undefined) {
      real = whereItLeads(folder);
      this.#folders.set(folder, real);
    }
    return real;
  }
}

/** The links directly in a folder (a missing or unreadable folder has none). */
function linksIn(directory: string): string[] {
  try {
    return readdirSync(directory, { withFileTypes: true })
      .slice(0, PROGRAM_LINK_LIMIT)
      .filter((entry) => entry.isSymbolicLink())
      .map((entry) => join(directory, entry.name));
  } catch {
    return [];
  }
}
