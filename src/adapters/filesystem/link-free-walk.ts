/**
 * The write boundary's usual case, resolved with one lstat per name. From a directory
 * whose path is already real, each name below it is looked at in turn: while none is a symbolic
 * link, the names as written are the real path, exactly what realpath would return, and the first
 * missing name ends the walk. A realpath instead costs a look-up for every name from the
 * filesystem root down, and the boundary used to pay it at each write decision.
 */
import { lstatSync } from "node:fs";
import { sep } from "node:path";
import { childPath } from "./child-path.js";
import { errorCode } from "./fs-errors.js";

/**
 * Only on Linux is a name that lstat finds its own real spelling: Windows' realpath also turns a
 * short name (`RUNNER~1`) or a subst drive into the real one, and macOS's may change case. There
 * the full resolution decides every path.
 */
const NAMES_ARE_REAL = process.platform === "linux";

/**
 * `target`: `segments` under the real directory `root`, as a real path; its last `missing` names
 * do not exist (yet). Undefined when a name on the way is a symbolic link (or the platform's names
 * need realpath): the caller's full resolution then follows it. Platform errors other than a
 * missing name are thrown, so the caller fails closed.
 */
export function walkWithoutLinks(
  root: string,
  segments: readonly string[],
): { target: string; missing: number } | undefined {
  if (!NAMES_ARE_REAL) return undefined;
  let directory = root;
  for (let index = 0; index < segments.length; index += 1) {
    const candidate = childPath(directory, segments[index] ?? "");
    const stats = lstatOrMissing(candidate);
    if (stats === undefined) {
      // Nothing there, so no dangling link either: the rest is created as written.
      return {
        // Plain names under a real directory: `join`'s normalising pass has nothing to do.
        target: childPath(directory, segments.slice(index).join(sep)),
        missing: segments.length - index,
      };
    }
    if (stats.isSymbolicLink()) return undefined;
    directory = candidate;
  }
  return { target: directory, missing: 0 };
}

function lstatOrMissing(path: string): ReturnType<typeof lstatSync> {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    // A file on the way (`notes.md/x`): nothing can exist below it.
    if (errorCode(error) === "ENOTDIR") return undefined;
    throw error;
  }
}
