/**
 * lstat that answers each path at most once, for the look-ups of one decision only:
 * the write boundary's `.git` checks and the git delegation scan ask about the same entries. It
 * lives as long as that decision, never longer: between two decisions a command may plant a link,
 * a FIFO or a repository anywhere, so every decision looks again.
 */
import { lstatSync, type Stats } from "node:fs";

/** `lstatSync` without an exception for a missing path; other errors are thrown as they are. */
export type Lstat = (path: string) => Stats | undefined;

export const lstatNow: Lstat = (path) => lstatSync(path, { throwIfNoEntry: false });

export function lstatOnce(): Lstat {
  // A handful of paths per decision: a scan compares fewer characters than a Map hashes.
  const paths: string[] = [];
  const answers: (Stats | undefined)[] = [];
  return (path) => {
    const known = paths.indexOf(path);
    if (known !== -1) return answers[known];
    // An error is not remembered: it is thrown again at the next ask, as lstat would.
    const stats = lstatNow(path);
    paths.push(path);
    answers.push(stats);
    return stats;
  };
}
