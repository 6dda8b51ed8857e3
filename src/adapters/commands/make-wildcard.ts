/**
 * `$(wildcard …)` as make lists it: the files there now that each pattern matches (`*`, `?` and
 * `[…]` within one folder's names, a leading `.` matched only by a pattern that says it), relative
 * as the pattern is, each folder's names sorted. Read at each binding, so a file added later makes
 * the binding differ, as a file written later would. Bounded: over MAX_WILDCARD_MATCHES names, the
 * caller refuses.
 */
import { isAbsolute, join } from "node:path";

export const MAX_WILDCARD_MATCHES = 4096;

/** What the lister reads: a folder's names, and whether a path holds anything. */
export interface FolderView {
  list(path: string): readonly string[] | undefined;
  exists(path: string): boolean;
}

export function makeWildcard(
  words: string,
  directory: string,
  view: FolderView,
  tooMany: () => never,
): string {
  const found: string[] = [];
  for (const pattern of words.split(/\s+/u).filter(Boolean)) {
    found.push(...matches(pattern, directory, view));
    if (found.length > MAX_WILDCARD_MATCHES) tooMany();
  }
  return found.join(" ");
}

function matches(pattern: string, directory: string, view: FolderView): string[] {
  const where = (path: string): string => (isAbsolute(path) ? path : join(directory, path));
  let paths = [isAbsolute(pattern) ? "/" : ""];
  for (const segment of pattern.split("/").filter(Boolean)) {
    if (!/[*?[]/u.test(segment)) {
      paths = paths.map((path) => (path === "" ? segment : join(path, segment)));
      continue;
    }
    const matcher = segmentMatcher(segment);
    paths = paths.flatMap((path) =>
      (view.list(where(path)) ?? [])
        .filter((name) => matcher.test(name) && (segment.startsWith(".") || !name.startsWith(".")))
        .sort()
        .map((name) => (path === "" ? name : join(path, name))),
    );
    if (paths.length > MAX_WILDCARD_MATCHES) return paths;
  }
  return paths.filter((path) => path !== "" && view.exists(where(path)));
}

/** One name's pattern as a regular expression; a class's characters are taken as they are. */
function segmentMatcher(segment: string): RegExp {
  let source = "";
  for (let at = 0; at < segment.length; at += 1) {
    const char = segment[at] ?? "";
    const close = char === "[" ? segment.indexOf("]", at + 2) : -1;
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (close > 0) {
      const inside = segment.slice(at + 1, close);
      const negated = /^[!^]/u.test(inside);
      const members = (negated ? inside.slice(1) : inside).replace(/[\\\][^]/gu, "\\$&");
      source += `[${negated ? "^" : ""}${members}]`;
      at = close;
    } else source += char.replace(/[.+^$?*{}()|[\]\\/]/gu, "\\$&");
  }
  return new RegExp(`^${source}$`, "u");
}
