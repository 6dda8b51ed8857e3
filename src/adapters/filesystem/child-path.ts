import { sep } from "node:path";

/**
 * `join` for one plain name (no separator, `.` or `..`) under a directory that is already
 * normalised, without `join`'s normalising pass: the write boundary builds a handful per decision
 * and `join` showed in its profile.
 */
export function childPath(directory: string, name: string): string {
  return directory.endsWith(sep) ? directory + name : directory + sep + name;
}
