/**
 * The walk that finds the files a later session, an editor or CI loads fails closed: a folder it
 * cannot read is not taken for an empty one (a command could `chmod 000` the folder it hid an
 * AGENTS.md in). Tests run as root, which reads a `chmod 000` folder all the same, so the
 * listing error is injected; the real one is checked only where the tests do not run as root.
 */
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
  type Dirent,
} from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  closedToThisProcess,
  LOADED_LATER_ENTRIES,
  loadedLaterPlaces,
  LoadedLaterScanError,
  type FolderListing,
} from "../../../src/adapters/filesystem/index.js";
import { reasonOutsideInstalledCode } from "../../../src/core/policy/loaded-later-files.js";

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

describe("loadedLaterPlaces on a folder it cannot read", () => {
  it.each(["EACCES", "EPERM", "EIO"])("refuses (%s) instead of reading it as empty", (code) => {
    const error = scanError(() =>
      loadedLaterPlaces(ws, reasonOutsideInstalledCode, failingAt(join(ws, "hidden"), code)),
    );
    expect(error.code).toBe("path_escape");
    expect(error.message).toBe(
      `${join(ws, "hidden")} cannot be read (${code}), so a file a later session, an editor or CI loads could lie there unseen`,
    );
    expect(error.remedy).toBe("make it readable");
  });

  it("reads as empty an unreadable folder another user owns and this process may not write", () => {
    const asked: string[] = [];
    const closed = (directory: string): boolean => {
      asked.push(directory);
      return true;
    };
    const entries = loadedLaterPlaces(
      ws,
      reasonOutsideInstalledCode,
      failingAt(join(ws, "hidden"), "EACCES"),
      closed,
    );
    expect(entries.map((entry) => entry.path)).toEqual([join(ws, "AGENTS.md")]);
    expect(asked).toEqual([join(ws, "hidden")]);
    // Not for another error: only a folder closed to this process is known to hold nothing ours.
    expect(
      scanError(() =>
        loadedLaterPlaces(
          ws,
          reasonOutsideInstalledCode,
          failingAt(join(ws, "hidden"), "EIO"),
          closed,
        ),
      ).message,
    ).toBe(
      `${join(ws, "hidden")} cannot be read (EIO), so a file a later session, an editor or CI loads could lie there unseen`,
    );
  });

  it("counts a folder of this process's own user as open to it: its own command could shut it", () => {
    expect(closedToThisProcess(join(ws, "hidden"))).toBe(false);
    expect(closedToThisProcess(join(ws, "no such folder"))).toBe(false);
  });

  it("reads a folder that vanished since its parent was listed as empty: nothing can lie there", () => {
    const entries = loadedLaterPlaces(
      ws,
      reasonOutsideInstalledCode,
      failingAt(join(ws, "hidden"), "ENOENT"),
    );
    expect(entries.map((entry) => entry.path)).toEqual([join(ws, "AGENTS.md")]);
  });

  it.skipIf(process.getuid?.() === 0)(
    "refuses a real chmod 000 folder (only where the tests do not run as root)",
    () => {
      chmodSync(join(ws, "hidden"), 0o000);
      const error = scanError(() => loadedLaterPlaces(ws, reasonOutsideInstalledCode));
      expect(error.message).toBe(
        `${join(ws, "hidden")} cannot be read (EACCES), so a file a later session, an editor or CI loads could lie there unseen`,
      );
    },
  );
});

describe("loadedLaterPlaces in a folder of very many entries", () => {
  it("stops at the entries bound and refuses, without reading the folder whole", () => {
    mkdirSync(join(ws, "huge"));
    writeFileSync(join(ws, "huge", "x.txt"), "");
    const [file] = readdirSync(join(ws, "huge"), { withFileTypes: true });
    if (file === undefined) throw new Error("no entry to repeat");
    let read = 0;
    // Twice the bound in one folder: the walk must stop reading it at the bound.
    const huge: FolderListing = function* (directory) {
      if (directory !== join(ws, "huge")) {
        yield* readdirSync(directory, { withFileTypes: true });
        return;
      }
      for (let i = 0; i < 2 * LOADED_LATER_ENTRIES; i += 1) {
        read += 1;
        yield file;
      }
    };
    const error = scanError(() => loadedLaterPlaces(ws, reasonOutsideInstalledCode, huge));
    expect(error.message).toBe(
      `the workspace holds more than ${String(LOADED_LATER_ENTRIES)} entries within 4 levels, too many to find every file a later session, an editor or CI loads`,
    );
    expect(error.remedy).toBe("run the agent in a smaller directory");
    expect(read).toBeLessThanOrEqual(LOADED_LATER_ENTRIES + 1);
  });

  it("reads up to the bound and finds what is there", () => {
    mkdirSync(join(ws, "many"));
    writeFileSync(join(ws, "many", "x.txt"), "");
    const [file] = readdirSync(join(ws, "many"), { withFileTypes: true });
    if (file === undefined) throw new Error("no entry to repeat");
    // The workspace's own entries (AGENTS.md, hidden, many, hidden/AGENTS.md) fill the rest.
    const many: FolderListing = function* (directory) {
      if (directory !== join(ws, "many")) {
        yield* readdirSync(directory, { withFileTypes: true });
        return;
      }
      for (let i = 0; i < LOADED_LATER_ENTRIES - 4; i += 1) yield file;
    };
    expect(
      loadedLaterPlaces(ws, reasonOutsideInstalledCode, many)
        .map((entry) => entry.path)
        .sort(),
    ).toEqual([join(ws, "AGENTS.md"), join(ws, "hidden", "AGENTS.md")]);
  });
});

describe("loadedLaterPlaces on a dangling link of a listed name", () => {
  it("says where a write would make the file the link leads to, inside the workspace only", () => {
    symlinkSync(join("docs", "rules.md"), join(ws, "CLAUDE.md"));
    symlinkSync("ci", join(ws, ".github"));
    symlinkSync(join(tmpdir(), "outside-rules.md"), join(ws, "GEMINI.md"));
    const links = loadedLaterPlaces(ws, reasonOutsideInstalledCode)
      .filter((entry) => entry.link === true)
      .map((entry) => [entry.path, entry.leadsTo, entry.wouldLeadTo])
      .sort();
    expect(links).toEqual(
      [
        [join(ws, ".github"), undefined, join(ws, "ci")],
        [join(ws, "CLAUDE.md"), undefined, join(ws, "docs", "rules.md")],
        [join(ws, "GEMINI.md"), undefined, undefined],
      ].sort(),
    );
  });
});

describe("installed code is not walked", () => {
  it("node_modules, .venv, venv and .yarn are not entered: nothing below them is listed", () => {
    for (const folder of ["node_modules", ".venv", "venv", ".yarn"]) {
      mkdirSync(join(ws, folder, "lib"), { recursive: true });
      writeFileSync(join(ws, folder, "lib", "AGENTS.md"), "x\n");
    }
    writeFileSync(join(ws, "AGENTS.md"), "x\n");
    const names = (path: string): string | undefined =>
      path.endsWith("AGENTS.md") ? "an agent's instructions" : undefined;
    const listed = loadedLaterPlaces(ws, names).map((entry) => entry.path);
    expect(listed).toContain(join(ws, "AGENTS.md"));
    expect(listed.filter((path) => /node_modules|venv|\.yarn/u.test(path))).toEqual([]);
  });
});
