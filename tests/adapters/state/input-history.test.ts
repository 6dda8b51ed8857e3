import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InputHistoryFile, inputHistoryPath } from "../../../src/adapters/state/index.js";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(await realpath(tmpdir()), "input-history-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const posixOnly = process.platform === "win32";

describe("InputHistoryFile", () => {
  it("keeps lines across sessions, one JSON string a line, owner-only", async () => {
    const first = InputHistoryFile.open(root);
    expect(first.entries).toEqual([]);
    first.add("fix the test");
    first.add('say "hi"\nthere');
    first.add("   ");
    first.close();
    const second = InputHistoryFile.open(root);
    expect(second.entries).toEqual(["fix the test", 'say "hi"\nthere']);
    second.close();
    expect(await readFile(inputHistoryPath(root), "utf8")).toBe(
      '"fix the test"\n"say \\"hi\\"\\nthere"\n',
    );
    if (!posixOnly) expect((await stat(inputHistoryPath(root))).mode & 0o777).toBe(0o600);
  });

  it("skips a torn or foreign line rather than failing", async () => {
    await writeFile(inputHistoryPath(root), '"one"\n{"not":"a string"}\n"two"\n"thr', {
      mode: 0o600,
    });
    const history = InputHistoryFile.open(root);
    expect(history.entries).toEqual(["one", "two"]);
    history.close();
  });

  it.skipIf(posixOnly)("refuses a symbolic link, and writes nothing where it points", async () => {
    const target = join(root, "elsewhere");
    await writeFile(target, "");
    await symlink(target, inputHistoryPath(root));
    expect(() => InputHistoryFile.open(root)).toThrow(/symbolic link/);
    expect(await readFile(target, "utf8")).toBe("");
  });

  it.skipIf(posixOnly)("refuses a FIFO without waiting on it", () => {
    execFileSync("mkfifo", [inputHistoryPath(root)]);
    expect(() => InputHistoryFile.open(root)).toThrow(/regular file/);
  });
});
