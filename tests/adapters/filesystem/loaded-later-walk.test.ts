/**
 * The walk that finds the files a later session, an editor or CI loads fails closed: a folder it
 * cannot read is not taken for an empty one (a command could `chmod 000` the folder it hid an
 * AGENTS.md in). Tests run as root, which reads a `chmod 000` folder all the same, so the
 * listing error is injected; the real one is checked only where the tests do not run as root.
 */
import { chmodSync, mkdirSync, readdirSync, writeFileSync, type Dirent } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  loadedLaterEntries,
  LoadedLaterScanError,
  type FolderListing,
} from "../../../src/adapters/filesystem/index.js";
import { loadedLaterReason } from "../../../src/core/policy/loaded-later-files.js";

let ws: string;

beforeEach(async () => {
  ws = await mkdtemp(join(await realpath(tmpdir()), "loaded-later-walk-"));
  mkdirSync(join(ws, "hidden"));
  writeFileSync(join(ws, "hidden", "AGENTS.md"), "evil\n");
  writeFileSync(join(ws, "AGENTS.md"), "rules\n");
});
afterEach(async () => {
  chmodSync(join(ws, "hidden"), 0o755);
  await rm(ws, { recursive: true, force: true });
});

/** Lists as the platform does, except that `failing` throws `code` as the platform would. */
function failingAt(failing: string, code: string): FolderListing {
  return (directory: string): Dirent[] => {
    if (directory === failing) {
      throw Object.assign(new Error(`${code}: scandir '${directory}'`), { code });
    }
    return readdirSync(directory, { withFileTypes: true });
  };
}

function scanError(run: () => unknown): LoadedLaterScanError {
  try {
    run();
  } catch (error) {
    if (error instanceof LoadedLaterScanError) return error;
    throw error;
  }
  throw new Error("the walk did not throw");
}

describe("loadedLaterEntries on a folder it cannot read", () => {
  it.each(["EACCES", "EPERM", "EIO"])("refuses (%s) instead of reading it as empty", (code) => {
    const error = scanError(() =>
      loadedLaterEntries(ws, loadedLaterReason, failingAt(join(ws, "hidden"), code)),
    );
    expect(error.code).toBe("path_escape");
    expect(error.message).toBe(
      `${join(ws, "hidden")} cannot be read (${code}), so a file a later session, an editor or CI loads could lie there unseen`,
    );
    expect(error.remedy).toBe("make it readable");
  });

  it("reads a folder that vanished since its parent was listed as empty: nothing can lie there", () => {
    const entries = loadedLaterEntries(
      ws,
      loadedLaterReason,
      failingAt(join(ws, "hidden"), "ENOENT"),
    );
    expect(entries.map((entry) => entry.path)).toEqual([join(ws, "AGENTS.md")]);
  });

  it.skipIf(process.getuid?.() === 0)(
    "refuses a real chmod 000 folder (only where the tests do not run as root)",
    () => {
      chmodSync(join(ws, "hidden"), 0o000);
      const error = scanError(() => loadedLaterEntries(ws, loadedLaterReason));
      expect(error.message).toBe(
        `${join(ws, "hidden")} cannot be read (EACCES), so a file a later session, an editor or CI loads could lie there unseen`,
      );
    },
  );
});
