/**
 * What git would leave out of a search, for `grep`: the rules of `.git/info/exclude` (the
 * repository's own, never committed) under those of every `.gitignore` on the way down, read
 * with the `ignore` package (git's rules). As in git, a deeper file's rule beats a shallower
 * one's, and any `.gitignore` beats `info/exclude`: `!pattern` in one re-includes what the other
 * ignored. Each file is read without following a link, only when it is a regular file reached
 * through real directories: a file elsewhere must not decide what is searched.
 */
import { closeSync, constants, fstatSync, openSync, type Dirent } from "node:fs";
import { sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { O_NOFOLLOW, O_NONBLOCK } from "./fs-errors.js";
import { isOpenedAt, readAtMostSync } from "./safe-open.js";

/** An ignore file larger than this is not read (nothing it says is applied). */
const IGNORE_FILE_LIMIT_BYTES = 1024 * 1024;

export interface IgnoreLevel {
  /** The directory's workspace-relative path with a trailing `/`, or "" for the root. */
  readonly base: string;
  readonly rules: Ignore;
}

/** Whether the deepest level with a say ignores `relative` (a directory's is tested with `/`). */
export function ignoredBy(
  levels: readonly IgnoreLevel[],
  relative: string,
  isDirectory: boolean,
): boolean {
  for (let index = levels.length - 1; index >= 0; index -= 1) {
    const level = levels[index];
    if (level === undefined) continue;
    const outcome = level.rules.test(relative.slice(level.base.length) + (isDirectory ? "/" : ""));
    if (outcome.ignored) return true;
    if (outcome.unignored) return false;
  }
  return false;
}

/**
 * The workspace's first level: `.git/info/exclude` when the workspace is a repository's top
 * (its patterns are relative to it), else none. `root` is real, with a trailing separator.
 */
export function repositoryExcludes(root: string): readonly IgnoreLevel[] {
  const rules = readRules(`${root}.git${sep}info${sep}exclude`);
  return rules === undefined ? [] : [{ base: "", rules }];
}

/**
 * `levels` with the directory's own `.gitignore` added, when `entries` (its listing) holds one.
 * `absolute` is the directory's real path with a trailing separator. A `.gitignore` the person's
 * rules withhold is not read: what it leaves out of a search would tell what it says.
 */
export function withGitignore(
  levels: readonly IgnoreLevel[],
  absolute: string,
  relative: string,
  entries: readonly Dirent[],
  isWithheld: (path: string) => boolean = () => false,
): readonly IgnoreLevel[] {
  const file = entries.find((entry) => entry.name === ".gitignore" && entry.isFile());
  if (file === undefined || isWithheld(`${relative}${file.name}`)) return levels;
  const rules = readRules(absolute + file.name);
  return rules === undefined ? levels : [...levels, { base: relative, rules }];
}

function readRules(path: string): Ignore | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile() || !isOpenedAt(fd, path)) return undefined;
    const bytes = readAtMostSync(fd, IGNORE_FILE_LIMIT_BYTES);
    return bytes === undefined ? undefined : ignore().add(bytes.toString("utf8"));
  } finally {
    closeSync(fd);
  }
}
