/**
 * Searches the workspace's text files for `grep`. The walk is glob's rules and a few more:
 * - it never enters `.git` under any alias, nor a `node_modules` the glob does not name;
 * - it never follows a link: a symbolic link (to a file or a directory) is not read, a file with
 *   a second hard link is not read (read_file refuses it too), each directory is listed through
 *   a descriptor proved to be at the path expected (held-listing.ts, as glob does), so a
 *   directory a running command swaps for a link mid-walk is not entered, and a file that matched
 *   is checked to be at the path the walk expected before its lines are shown;
 * - what `.git/info/exclude` or a `.gitignore` in the workspace ignores is neither entered nor
 *   read (grep-ignores.ts), even when the request's path names it: `ignoredPath` then says so;
 *   but for the harness's saved outputs (`.agent/outputs`), which it ignores itself and points
 *   the model to: a path naming them is searched;
 * - a file with a NUL byte in its first 8 KiB is binary and left out, and so is one over
 *   GREP_FILE_LIMIT_BYTES; both are counted.
 * Each directory's files are searched in name order (code units), then its subdirectories, so
 * the result is the same on every machine. It stops at the cap: `truncated` says so.
 * The walk is synchronous in slices of SLICE_MS, so the event loop still runs between them.
 */
import { closeSync, fstatSync, openSync, readSync, type Dirent } from "node:fs";
import { constants } from "node:fs";
import { sep } from "node:path";
import type { GrepLine, GrepRequest, GrepResult } from "../../core/ports/filesystem.js";
import { O_NOFOLLOW, O_NONBLOCK } from "./fs-errors.js";
import { withheldPaths } from "../../core/policy/path-globs.js";
import { isGitDirectoryName } from "./git-names.js";
import type { GlobPattern, GlobState } from "./glob-pattern.js";
import { ignoredBy, repositoryExcludes, withGitignore, type IgnoreLevel } from "./grep-ignores.js";
import { heldDirectoryLister, type ListDirectory } from "./held-listing.js";
import { OUTPUTS_DIRECTORY } from "./output-store-layout.js";
import { isOpenedAt } from "./safe-open.js";

/** A file larger than this is not searched (counted as skipped). */
export const GREP_FILE_LIMIT_BYTES = 4 * 1024 * 1024;
/** How much of a file decides whether it is binary, as git and grep look. */
const BINARY_PROBE_BYTES = 8000;
const SLICE_MS = 20;
const DEPENDENCY_DIRECTORY = "node_modules";

/** Whether a line matches, and a cheap test of a whole file first (false: no line can match). */
export interface LineMatcher {
  readonly mayMatch: (bytes: Buffer, text: () => string) => boolean;
  readonly matches: (line: string) => boolean;
}

/** Throws a SyntaxError for a pattern that is not a JavaScript regular expression. */
export function lineMatcher(request: GrepRequest): LineMatcher {
  const { pattern, fixedStrings, ignoreCase } = request;
  if (fixedStrings && !ignoreCase) {
    const needle = Buffer.from(pattern, "utf8");
    return {
      mayMatch: (bytes) => bytes.includes(needle),
      matches: (line) => line.includes(pattern),
    };
  }
  const source = fixedStrings ? pattern.replace(/[.*+?^${}()|[\]\\/-]/gu, "\\$&") : pattern;
  const flags = ignoreCase ? "i" : "";
  const line = compile(source, flags);
  // Multiline, so `^` and `$` mean a line's ends in the whole text too: a match there is only a
  // hint (`\s` crosses lines), each line is then tested alone.
  const whole = compile(source, `${flags}m`);
  return {
    mayMatch: (_bytes, text) => whole.test(text()),
    matches: (text) => line.test(text),
  };
}

/** With the `u` flag where the pattern allows it (`.` then matches a whole emoji). */
function compile(source: string, flags: string): RegExp {
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    return new RegExp(source, flags);
  }
}

interface Directory {
  readonly absolute: string;
  readonly relative: string;
  readonly state: GlobState | undefined;
  readonly ignores: readonly IgnoreLevel[];
}

/**
 * `root` must be the workspace's real path; `glob` absent searches every file; `request.path`,
 * when set, is a real workspace-relative path (grep-search-root.ts): only it, or what is below it,
 * is searched. `list` lists one directory (tests wrap it to act between the walk seeing a
 * directory and listing it).
 */
export async function grepWorkspace(
  root: string,
  request: GrepRequest,
  glob: GlobPattern | undefined,
  list: ListDirectory = heldDirectoryLister(),
): Promise<GrepResult> {
  const matcher = lineMatcher(request);
  const readWhole = wholeFileReader();
  const under = request.path;
  // Never opened nor counted: a search must not tell what is in them, not even by a count.
  const isWithheld = withheldPaths(request.withheld ?? []);
  const searchesDependencies =
    (glob?.namesLiterally(DEPENDENCY_DIRECTORY) ?? false) ||
    (under?.split("/").includes(DEPENDENCY_DIRECTORY) ?? false);
  const lines: GrepLine[] = [];
  // Counted by searchFile as it goes.
  const tally = {
    matched: 0,
    truncated: false,
    searchedFiles: 0,
    skippedBinary: 0,
    skippedLarge: 0,
  };
  // The named path, or a folder on the way to it, that an ignore file left out: nothing was
  // searched. Never said of a path the person's rules withhold: that stays as it is.
  let ignoredPath: string | undefined;
  // The harness's own saved outputs, which its truncation notice tells the model to read, are
  // git-ignored by the harness itself (`.agent/.gitignore`): a search that names them reads them.
  const namesSavedOutputs =
    under !== undefined &&
    (under === OUTPUTS_DIRECTORY || under.startsWith(`${OUTPUTS_DIRECTORY}/`));
  const ignored = (ignores: readonly IgnoreLevel[], relative: string, isDirectory: boolean) =>
    !namesSavedOutputs && ignoredBy(ignores, relative, isDirectory);
  const leftOut = (relative: string): void => {
    if (under === undefined || isWithheld(under)) return;
    if (relative === under || under.startsWith(`${relative}/`)) ignoredPath = relative;
  };

  const searchFile = (absolute: string, relative: string): void => {
    let fd: number;
    try {
      fd = openSync(absolute, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch {
      return; // gone, a link swapped in, or unreadable: nothing to show
    }
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile() || stats.nlink > 1) return;
      if (stats.size > GREP_FILE_LIMIT_BYTES) {
        tally.skippedLarge += 1;
        return;
      }
      const bytes = readWhole(fd, stats.size);
      if (bytes === undefined) {
        tally.skippedLarge += 1;
        return;
      }
      if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) {
        tally.skippedBinary += 1;
        return;
      }
      tally.searchedFiles += 1;
      let text: string | undefined;
      const decoded = (): string => (text ??= bytes.toString("utf8"));
      if (!matcher.mayMatch(bytes, decoded)) return;
      const found = matchingLines(decoded(), matcher, request.maxResults - tally.matched);
      if (found.hits.length === 0) return;
      // Reached through real directories only, or it is not the workspace's file.
      if (!isOpenedAt(fd, absolute)) return;
      tally.matched += found.hits.length;
      if (found.more) tally.truncated = true;
      for (const line of withContext(found.lines, found.hits, request.context)) {
        lines.push({ path: relative, ...line });
      }
    } finally {
      closeSync(fd);
    }
  };

  /** Searches one file; false once the cap is reached. */
  const searchedAndGoesOn = (absolute: string, relative: string): boolean => {
    searchFile(absolute, relative);
    return !tally.truncated;
  };

  const top = root.endsWith(sep) ? root : root + sep;
  const stack: Directory[] = [
    { absolute: top, relative: "", state: glob?.initial, ignores: repositoryExcludes(top) },
  ];
  let until = performance.now() + SLICE_MS;
  while (!tally.truncated) {
    const directory = stack.pop();
    if (directory === undefined) break;
    let entries: Dirent[] | undefined;
    try {
      entries = list(directory.absolute);
    } catch (error) {
      if (directory.relative === "") throw error;
      continue; // a subdirectory that vanished or cannot be read is skipped
    }
    if (entries === undefined) {
      // Not the directory the walk saw: a link or another directory took its name.
      if (directory.relative === "") {
        throw new Error(`the workspace ${root} was moved or replaced while grep searched it`);
      }
      continue;
    }
    const ignores = withGitignore(
      directory.ignores,
      directory.absolute,
      directory.relative,
      entries,
      isWithheld,
    );
    const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirectories: Directory[] = [];
    for (const entry of sorted) {
      const name = entry.name;
      if (isGitDirectoryName(name)) continue;
      const relative = directory.relative + name;
      if (isWithheld(relative)) continue;
      const state = directory.state === undefined ? undefined : glob?.step(directory.state, name);
      if (state?.length === 0) continue;
      if (under !== undefined && !onTheWayTo(relative, under)) continue;
      // Dirent types are lstat's: a link is neither a directory nor a file, and is never read.
      if (entry.isDirectory()) {
        if (state !== undefined && glob?.canMatchBelow(state) !== true) continue;
        if (name === DEPENDENCY_DIRECTORY && !searchesDependencies) continue;
        if (ignored(ignores, relative, true)) {
          leftOut(relative);
          continue;
        }
        subdirectories.push({
          absolute: directory.absolute + name + sep,
          relative: `${relative}/`,
          state,
          ignores,
        });
      } else if (entry.isFile()) {
        if (state !== undefined && glob?.accepts(state) !== true) continue;
        if (ignored(ignores, relative, false)) {
          leftOut(relative);
          continue;
        }
        if (!searchedAndGoesOn(directory.absolute + name, relative)) break;
      }
    }
    // The stack takes them last first, so they are searched in order.
    for (let index = subdirectories.length - 1; index >= 0; index -= 1) {
      const subdirectory = subdirectories[index];
      if (subdirectory !== undefined) stack.push(subdirectory);
    }
    if (performance.now() >= until) {
      await new Promise((resolve) => setImmediate(resolve));
      until = performance.now() + SLICE_MS;
    }
  }
  const { truncated, searchedFiles, skippedBinary, skippedLarge } = tally;
  return {
    lines,
    truncated,
    searchedFiles,
    skippedBinary,
    skippedLarge,
    ...(ignoredPath === undefined ? {} : { ignoredPath }),
  };
}

/** Whether `relative` is `under`, below it, or a folder on the way down to it. */
function onTheWayTo(relative: string, under: string): boolean {
  return relative === under || relative.startsWith(`${under}/`) || under.startsWith(`${relative}/`);
}

/**
 * Reads a whole file into one buffer kept for the search, grown as needed: a file's bytes are
 * only looked at until the next file is read (its lines are copied out as strings). A file that
 * grows past the limit while it is read is left out, like one that was over it.
 */
function wholeFileReader(): (fd: number, size: number) => Buffer | undefined {
  let buffer = Buffer.allocUnsafe(64 * 1024);
  return (fd, size) => {
    if (buffer.length < size + 1) buffer = Buffer.allocUnsafe(size + 1);
    let total = 0;
    for (;;) {
      if (total === buffer.length) {
        if (total > GREP_FILE_LIMIT_BYTES) return undefined;
        const larger = Buffer.allocUnsafe(Math.min(total * 2, GREP_FILE_LIMIT_BYTES + 1));
        buffer.copy(larger, 0, 0, total);
        buffer = larger;
      }
      const read = readSync(fd, buffer, total, buffer.length - total, null);
      if (read === 0) return buffer.subarray(0, total);
      total += read;
    }
  };
}

interface FoundLines {
  readonly lines: readonly string[];
  /** 0-based indexes of the matching lines, at most the cap. */
  readonly hits: readonly number[];
  /** Whether a further line matched past the cap. */
  readonly more: boolean;
}

function matchingLines(text: string, matcher: LineMatcher, room: number): FoundLines {
  const lines = text.split("\n");
  // A final newline ends the last line; it does not start another.
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const hits: number[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = (lines[index] ?? "").replace(/\r$/u, "");
    lines[index] = line;
    if (!matcher.matches(line)) continue;
    if (hits.length >= room) return { lines, hits, more: true };
    hits.push(index);
  }
  return { lines, hits, more: false };
}

function* withContext(
  lines: readonly string[],
  hits: readonly number[],
  context: number,
): Generator<Omit<GrepLine, "path">> {
  const isHit = new Set(hits);
  let shownUpTo = -1;
  for (const hit of hits) {
    const from = Math.max(hit - context, shownUpTo + 1);
    const to = Math.min(hit + context, lines.length - 1);
    for (let index = from; index <= to; index += 1) {
      yield { line: index + 1, text: lines[index] ?? "", match: isHit.has(index) };
    }
    shownUpTo = Math.max(shownUpTo, to);
  }
}
