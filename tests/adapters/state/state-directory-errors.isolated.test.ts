/**
 * A directory the state directory's checks cannot inspect (lstat fails: EACCES, EIO, …) is a
 * configuration error like the others, one line naming the path and the code, never a raw error.
 */
import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openWorkspaceState, StateDirectoryError } from "../../../src/adapters/state/index.js";
import { scratchDirectories } from "../../support/scratch-directories.js";

/** lstat of this path fails with EACCES. */
const failing = vi.hoisted(() => ({ lstat: undefined as string | undefined }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const lstat = ((path: string, ...rest: unknown[]) => {
    if (path === failing.lstat) {
      throw Object.assign(new Error(`EACCES: permission denied, lstat '${path}'`), {
        code: "EACCES",
      });
    }
    return (fs.lstatSync as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.lstatSync;
  return { ...fs, default: { ...fs, lstatSync: lstat }, lstatSync: lstat };
});

afterEach(() => {
  failing.lstat = undefined;
});

const scratch = scratchDirectories("state-errors-");
function places(): { root: string; workspace: string } {
  const base = realpathSync(scratch());
  return { root: join(base, "state"), workspace: join(base, "project") };
}

describe("openWorkspaceState when lstat fails", () => {
  it("on the state directory itself", () => {
    const { root, workspace } = places();
    failing.lstat = root;
    expect(() => openWorkspaceState(root, workspace)).toThrow(
      new StateDirectoryError(`the state directory ${root} cannot be inspected (EACCES)`),
    );
  });

  it("on a directory above it", () => {
    const { root, workspace } = places();
    const above = dirname(root);
    failing.lstat = above;
    expect(() => openWorkspaceState(root, workspace)).toThrow(
      new StateDirectoryError(
        `the state directory ${root} lies in ${above}, which cannot be inspected (EACCES)`,
      ),
    );
  });

  it("as a StateDirectoryError, not a plain error", () => {
    const { root, workspace } = places();
    failing.lstat = root;
    expect(() => openWorkspaceState(root, workspace)).toThrow(StateDirectoryError);
  });
});
