/** Where a path leads by its text alone, before any disk is asked. */

/**
 * True when the path, read as names only, leaves the root: absolute (`/x`, `\\x`, `C:x`, `//host`)
 * or a `..` that climbs above where it started. Both separators count, as on Windows.
 */
export function namesAPlaceOutside(path: string): boolean {
  if (/^[/\\]/u.test(path) || /^[A-Za-z]:/u.test(path)) return true;
  let depth = 0;
  for (const segment of path.split(/[/\\]/u)) {
    if (segment === "..") depth -= 1;
    else if (segment !== "" && segment !== ".") depth += 1;
    if (depth < 0) return true;
  }
  return false;
}
