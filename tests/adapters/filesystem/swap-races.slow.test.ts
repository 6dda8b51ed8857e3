/**
 * The file tools against a real process that keeps exchanging a workspace directory with a link
 * to the outside while they work (renameat2, so the name is never missing): the boundary's check
 * sees the real directory, the open may come while the link is there. Nothing outside is ever
 * read, written or made.
 */
import { readFileSync, readdirSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeWorkspaceFileSystem } from "../../../src/adapters/filesystem/index.js";
import { WorkspaceFileError } from "../../../src/core/ports/filesystem.js";
import { EXCHANGE_FLIPPER, whileExchanging } from "../../support/exchange-flipper.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

const RACE_MS = 1500;

describe.runIf(EXCHANGE_FLIPPER !== undefined)("a directory swapped for a link mid-call", () => {
  let temp: TempWorkspace;
  let files: NodeWorkspaceFileSystem;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
    files = new NodeWorkspaceFileSystem(temp.workspace);
    await mkdir(join(temp.workspace, "sub"));
    await writeFile(join(temp.workspace, "sub", "notes.txt"), "inside\n");
    await writeFile(join(temp.outside, "notes.txt"), "OUTSIDE SECRET\n");
    await symlink(temp.outside, join(temp.workspace, "link"));
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  /** Each call's outcome: the text read, or the error code; anything else fails the test. */
  async function attempt(call: () => Promise<string>): Promise<string> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof WorkspaceFileError) return `error ${error.code}`;
      throw error;
    }
  }

  async function race(call: () => Promise<string>): Promise<Set<string>> {
    const seen = new Set<string>();
    await whileExchanging(join(temp.workspace, "sub"), join(temp.workspace, "link"), async () => {
      const deadline = Date.now() + RACE_MS;
      while (Date.now() < deadline) seen.add(await attempt(call));
    });
    return seen;
  }

  it("read_file never returns the outside file's text", async () => {
    const seen = await race(async () => (await files.readFile("sub/notes.txt")).text);
    expect([...seen].filter((text) => text.includes("OUTSIDE"))).toEqual([]);
  });

  it("glob never lists a name from the outside directory", async () => {
    await writeFile(join(temp.outside, "outside-only.txt"), "x\n");
    const seen = await race(async () => (await files.glob("**")).paths.join(","));
    const listed = new Set([...seen].flatMap((paths) => paths.split(",")));
    expect([...listed].filter((path) => path.includes("outside-only"))).toEqual([]);
    expect(listed.has("sub/notes.txt")).toBe(true);
  });

  it("write_file never makes or changes anything outside, not even a temporary file", async () => {
    let count = 0;
    await race(async () => {
      count += 1;
      return String(await files.writeFile(`sub/deep/new-${String(count)}.txt`, "pwned\n"));
    });
    expect(readdirSync(temp.outside).sort()).toEqual(["notes.txt"]);
    expect(readFileSync(join(temp.outside, "notes.txt"), "utf8")).toBe("OUTSIDE SECRET\n");
  });

  it("edit_file never changes the outside file", async () => {
    await race(async () =>
      String(
        await files.editFile("sub/notes.txt", {
          oldString: "SECRET",
          newString: "x",
          replaceAll: true,
        }),
      ),
    );
    expect(readdirSync(temp.outside)).toEqual(["notes.txt"]);
    expect(readFileSync(join(temp.outside, "notes.txt"), "utf8")).toBe("OUTSIDE SECRET\n");
  });
});
