/**
 * The directories a write goes through, held open (held-directory.ts) and made one by one, each
 * through the one above it: a directory swapped for a link while the harness works is refused,
 * never followed. Refusals are said in the model's terms.
 */
import { relative, sep } from "node:path";
import { WorkspaceFileError } from "../../core/ports/filesystem.js";
import { parentNotDirectory, toWorkspaceError } from "./fs-errors.js";
import { DirectoryNotHeldError, HeldDirectory } from "./held-directory.js";

const NEW_DIRECTORY_MODE = 0o777;

/** Holds `directory`, a real path the boundary checked; `path` is the model's, for messages. */
export function holdDirectory(directory: string, path: string): HeldDirectory {
  return inWorkspaceTerms(path, () => HeldDirectory.open(directory, path));
}

/**
 * Makes every missing directory from `root` (the workspace's real path) down to `directory` (a
 * real path below it, as the boundary resolved it), each inside the one above, held.
 */
export function makeDirectories(root: string, directory: string, path: string): void {
  const names = relative(root, directory)
    .split(sep)
    .filter((name) => name !== "");
  let held = holdDirectory(root, path);
  try {
    for (const name of names) {
      const next = inWorkspaceTerms(path, () =>
        HeldDirectory.make(held, name, { shown: path, mode: NEW_DIRECTORY_MODE }),
      );
      held.close();
      held = next;
    }
  } finally {
    held.close();
  }
}

export function directoryChanged(path: string): WorkspaceFileError {
  return new WorkspaceFileError(
    "path_escape",
    `a directory on the path changed while writing: ${path}`,
  );
}

function inWorkspaceTerms<T>(path: string, act: () => T): T {
  try {
    return act();
  } catch (error) {
    if (!(error instanceof DirectoryNotHeldError)) throw error;
    switch (error.reason) {
      case "symbolic-link":
      case "moved":
        throw directoryChanged(path);
      case "not-directory":
        throw parentNotDirectory(path);
      case "failed":
        throw toWorkspaceError(Object.assign(new Error(error.message), { code: error.code }), path);
    }
  }
}
