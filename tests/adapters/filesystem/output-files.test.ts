import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { mkdir, readFile, rename, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  NodeWorkspaceFileSystem,
  NodeWorkspaceWriteBoundary,
  WorkspaceOutputStore,
  fileStem,
} from "../../../src/adapters/filesystem/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

const POSIX = process.platform !== "win32";

describe.runIf(POSIX)("saved outputs in .agent/outputs (POSIX: links, FIFOs)", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  function save(store: WorkspaceOutputStore, callId: string, text: string): string | undefined {
    const file = store.spillFor(callId).open();
    if (file === undefined) return undefined;
    file.write(Buffer.from(text));
    file.close();
    return file.path;
  }

  it("creates .agent/outputs with a .gitignore only at the first save, each output under its id", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    expect(store.realPath).toBe(join(temp.workspace, ".agent"));
    expect(existsSync(join(temp.workspace, ".agent"))).toBe(false);
    expect(save(store, "call_1", "one\n")).toBe(".agent/outputs/call_1.log");
    expect(save(store, "call_1", "again\n")).toBe(".agent/outputs/call_1-2.log");
    expect(await readFile(join(temp.workspace, ".agent/outputs/call_1.log"), "utf8")).toBe("one\n");
    expect(await readFile(join(temp.workspace, ".agent/.gitignore"), "utf8")).toContain("\n*\n");
    expect(lstatSync(join(temp.workspace, ".agent/outputs/call_1.log")).mode & 0o777).toBe(0o600);
  });

  it("names files by a safe form of the model's call id", () => {
    expect(fileStem("../../etc/passwd")).toBe("______etc_passwd");
    expect(fileStem("")).toBe("call");
    expect(fileStem("call_AbC-1")).toBe("call_AbC-1");
  });

  it("a .agent that is a link leaves nowhere to save, and nothing is written where it points", async () => {
    await symlink(temp.outside, join(temp.workspace, ".agent"));
    const store = WorkspaceOutputStore.open(temp.workspace);
    expect(save(store, "c", "x")).toBeUndefined();
    expect(readdirSync(temp.outside)).toEqual([]);
  });

  it("a .agent swapped for a link while a command runs gets nothing written outside", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    save(store, "first", "x");
    await rename(join(temp.workspace, ".agent"), join(temp.workspace, "moved"));
    await mkdir(join(temp.outside, "outputs"));
    await symlink(temp.outside, join(temp.workspace, ".agent"));
    expect(save(store, "c", "x")).toBeUndefined();
    expect(readdirSync(join(temp.outside, "outputs"))).toEqual([]);
  });

  it("an outputs directory swapped for a link gets nothing written outside", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    save(store, "first", "x");
    await rm(join(temp.workspace, ".agent/outputs"), { recursive: true });
    await symlink(temp.outside, join(temp.workspace, ".agent/outputs"));
    expect(save(store, "c", "x")).toBeUndefined();
    expect(readdirSync(temp.outside)).toEqual([]);
  });

  it("a link or a FIFO planted at the log's name is never opened: the next name is used", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    save(store, "first", "x");
    const outputs = join(temp.workspace, ".agent/outputs");
    await symlink(join(temp.outside, "stolen"), join(outputs, "c.log"));
    execFileSync("mkfifo", [join(outputs, "c-2.log")]);
    expect(save(store, "c", "secret output")).toBe(".agent/outputs/c-3.log");
    expect(existsSync(join(temp.outside, "stolen"))).toBe(false);
    expect(lstatSync(join(outputs, "c-2.log")).isFIFO()).toBe(true);
  });

  it("the file tools refuse to write inside .agent, and read_file reads a saved output", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    const harnessFiles = [store.realPath];
    const files = new NodeWorkspaceFileSystem(temp.workspace, { harnessFiles });
    // Before the first save too: the model cannot plant .agent itself.
    await expect(files.writeFile(".agent/outputs/c.log", "x")).rejects.toMatchObject({
      code: "protected_path",
    });
    save(store, "c", "1\n2\n");
    for (const path of [".agent/outputs/c.log", ".agent/.gitignore", ".agent/new.txt"]) {
      await expect(files.writeFile(path, "x")).rejects.toMatchObject({ code: "protected_path" });
    }
    const boundary = new NodeWorkspaceWriteBoundary({ harnessFiles });
    await expect(boundary.classifyWrite(temp.workspace, ".agent/outputs/c.log")).resolves.toBe(
      "harness-file",
    );
    await expect(boundary.classifyWrite(temp.workspace, "agent.txt")).resolves.toBe("inside");
    expect((await files.readFile(".agent/outputs/c.log")).text).toBe("1\n2\n");
    expect(await readFile(join(temp.workspace, ".agent/.gitignore"), "utf8")).not.toBe("x");
  });
});
