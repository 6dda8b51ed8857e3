import { execFileSync } from "node:child_process";
import { closeSync, constants, existsSync, lstatSync, readdirSync, utimesSync } from "node:fs";
import { link, mkdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  NodeWorkspaceFileSystem,
  NodeWorkspaceWriteBoundary,
  WorkspaceOutputStore,
  fileStem,
} from "../../../src/adapters/filesystem/index.js";
import { HeldDirectory } from "../../../src/adapters/filesystem/held-directory.js";
import { KEPT_OUTPUTS } from "../../../src/adapters/filesystem/output-files.js";
import { openRegularFileSync } from "../../../src/adapters/filesystem/safe-open.js";
import { OutputStoreError } from "../../../src/core/ports/command-runner.js";
import { EXCHANGE_FLIPPER, whileExchanging } from "../../support/exchange-flipper.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

const POSIX = process.platform !== "win32";
const CREATE_NEW_FOR_TEST = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

function save(store: WorkspaceOutputStore, callId: string, text: string): string | undefined {
  const file = store.spillFor(callId).open();
  if (file === undefined) return undefined;
  file.write(Buffer.from(text));
  file.close();
  return file.path;
}

describe.runIf(POSIX)("saved outputs in .agent/outputs (POSIX: links, FIFOs)", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

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

  it("keeps the newest KEPT_OUTPUTS saved outputs and removes only older saved outputs", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    const outputs = join(temp.workspace, ".agent/outputs");
    save(store, "first", "x\n");
    // Not saved outputs: a link to a file outside, and a file of another kind, both stay.
    await writeFile(join(temp.outside, "kept.log"), "outside\n");
    await symlink(join(temp.outside, "kept.log"), join(outputs, "0-link.log"));
    await writeFile(join(outputs, "notes.txt"), "mine\n");
    const base = Date.now() / 1000 - 10_000;
    utimesSync(join(outputs, "first.log"), base, base);
    for (let index = 0; index < KEPT_OUTPUTS + 4; index += 1) {
      const name = `call_${String(index).padStart(3, "0")}`;
      expect(save(store, name, `${name}\n`)).toBe(`.agent/outputs/${name}.log`);
      utimesSync(join(outputs, `${name}.log`), base + index + 1, base + index + 1);
    }
    const kept = readdirSync(outputs).sort();
    const newest = Array.from(
      { length: KEPT_OUTPUTS },
      (_, index) => `call_${String(index + 4).padStart(3, "0")}.log`,
    );
    expect(kept).toEqual(["0-link.log", ...newest, "notes.txt"].sort());
    expect(await readFile(join(temp.outside, "kept.log"), "utf8")).toBe("outside\n");
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

describe.runIf(POSIX)("the store before each command: made once, then proved to be ours", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  const refusal = (problem: string) =>
    new OutputStoreError(
      `The harness saves long command outputs in .agent/outputs, and ${problem}; no command ` +
        `runs until the person removes or repairs .agent, which the harness makes again when it ` +
        `is gone`,
    );

  function outsideEntries(): string[] {
    return readdirSync(temp.outside, { recursive: true }).map(String).sort();
  }

  it("makes .agent/outputs and its .gitignore before the first command, owner-only", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    store.prepareForCommand();
    expect(lstatSync(join(temp.workspace, ".agent")).mode & 0o777).toBe(0o700);
    expect(lstatSync(join(temp.workspace, ".agent/outputs")).mode & 0o777).toBe(0o700);
    expect(await readFile(join(temp.workspace, ".agent/.gitignore"), "utf8")).toBe(
      "# Written by agent-harness: saved command outputs, never committed.\n" +
        "# commands.json, chapter 4's allowlist, is yours to commit.\n*\n!/commands.json\n",
    );
    expect(readdirSync(join(temp.workspace, ".agent/outputs"))).toEqual([]);
    store.prepareForCommand(); // still ours: nothing to say
  });

  it("git ignores the saved outputs but not the allowlist the README says to check in", () => {
    execFileSync("git", ["init", "-q", temp.workspace]);
    const store = WorkspaceOutputStore.open(temp.workspace);
    store.prepareForCommand();
    save(store, "call_1", "output\n");
    const ignored = (path: string): boolean => {
      try {
        execFileSync("git", ["check-ignore", "-q", path], { cwd: temp.workspace });
        return true;
      } catch {
        return false;
      }
    };
    expect(ignored(".agent/outputs/call_1.log")).toBe(true);
    expect(ignored(".agent/.gitignore")).toBe(true);
    expect(ignored(".agent/commands.json")).toBe(false);
  });

  it("refuses the next command once a command swapped .agent for a link, and writes nothing there", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    store.prepareForCommand();
    await rename(join(temp.workspace, ".agent"), join(temp.workspace, "moved"));
    await symlink(temp.outside, join(temp.workspace, ".agent"));
    expect(() => {
      store.prepareForCommand();
    }).toThrow(refusal(".agent was replaced or moved since the harness made it"));
    expect(store.spillFor("c").open()).toBeUndefined();
    expect(outsideEntries()).toEqual([]);
  });

  it("refuses a .agent/outputs swapped for a link, or for another real directory", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    store.prepareForCommand();
    const outputs = join(temp.workspace, ".agent/outputs");
    await rename(outputs, join(temp.workspace, "old-outputs"));
    await symlink(temp.outside, outputs);
    const replaced = refusal(".agent/outputs was replaced or moved since the harness made it");
    expect(() => {
      store.prepareForCommand();
    }).toThrow(replaced);
    await rm(outputs);
    await mkdir(outputs);
    expect(() => {
      store.prepareForCommand();
    }).toThrow(replaced);
    expect(store.spillFor("c").open()).toBeUndefined();
    expect(outsideEntries()).toEqual([]);
    expect(readdirSync(outputs)).toEqual([]);
  });

  it("a .agent that is a link before the first command is never made or written through", async () => {
    await symlink(temp.outside, join(temp.workspace, ".agent"));
    const store = WorkspaceOutputStore.open(temp.workspace);
    expect(() => {
      store.prepareForCommand();
    }).toThrow(refusal(".agent is a symbolic link"));
    await rm(join(temp.workspace, ".agent"));
    execFileSync("mkfifo", [join(temp.workspace, ".agent")]);
    expect(() => {
      store.prepareForCommand();
    }).toThrow(refusal(".agent is not a directory"));
    expect(outsideEntries()).toEqual([]);
  });

  it("checks the .gitignore like every harness file: a link, a FIFO or a second name is refused", async () => {
    const gitignore = join(temp.workspace, ".agent/.gitignore");
    await mkdir(join(temp.workspace, ".agent"));
    await symlink(join(temp.outside, "ignore"), gitignore);
    const store = WorkspaceOutputStore.open(temp.workspace);
    expect(() => {
      store.prepareForCommand();
    }).toThrow(refusal(".agent/.gitignore is a symbolic link"));
    await rm(gitignore);
    // A FIFO with no writer: opening it must neither block nor be taken for the file.
    execFileSync("mkfifo", [gitignore]);
    expect(() => {
      store.prepareForCommand();
    }).toThrow(refusal(".agent/.gitignore is not a regular file"));
    await rm(gitignore);
    store.prepareForCommand();
    await link(gitignore, join(temp.workspace, "second-name"));
    expect(() => {
      store.prepareForCommand();
    }).toThrow(refusal(".agent/.gitignore has 2 hard links"));
    await rm(join(temp.workspace, "second-name"));
    await rm(gitignore);
    await symlink(join(temp.outside, "ignore"), gitignore);
    expect(() => {
      store.prepareForCommand();
    }).toThrow(refusal(".agent/.gitignore was replaced since the harness made it"));
    expect(outsideEntries()).toEqual([]);
  });

  it("makes again what a command removed altogether, and saves there", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    store.prepareForCommand();
    await rm(join(temp.workspace, ".agent"), { recursive: true });
    store.prepareForCommand();
    await rm(join(temp.workspace, ".agent/outputs"), { recursive: true });
    store.prepareForCommand();
    expect(save(store, "c", "x")).toBe(".agent/outputs/c.log");
  });

  it("a FIFO planted where the log would go is skipped without blocking", () => {
    const store = WorkspaceOutputStore.open(temp.workspace);
    store.prepareForCommand();
    execFileSync("mkfifo", [join(temp.workspace, ".agent/outputs/c.log")]);
    expect(save(store, "c", "x")).toBe(".agent/outputs/c-2.log");
    expect(lstatSync(join(temp.workspace, ".agent/outputs/c.log")).isFIFO()).toBe(true);
  });

  it.runIf(process.platform === "linux")(
    "a file is made in the directory held, even when its name was swapped for a link just before",
    async () => {
      const agent = join(temp.workspace, ".agent");
      await mkdir(agent);
      const held = HeldDirectory.make(temp.workspace, ".agent", { shown: ".agent", mode: 0o700 });
      try {
        expect(held.reachesByDescriptor).toBe(true);
        await rename(agent, join(temp.workspace, "moved"));
        await symlink(temp.outside, agent);
        const { handle } = openRegularFileSync(held.entry("new.log"), CREATE_NEW_FOR_TEST, {
          mode: 0o600,
        });
        closeSync(handle);
        expect(outsideEntries()).toEqual([]);
        expect(readdirSync(join(temp.workspace, "moved"))).toEqual(["new.log"]);
        expect(held.isStillAtPath()).toBe(false);
      } finally {
        held.close();
      }
    },
  );

  it.runIf(EXCHANGE_FLIPPER !== undefined)(
    "a command flipping .agent and a link to the outside all the while never gets a file made there",
    async () => {
      const store = WorkspaceOutputStore.open(temp.workspace);
      store.prepareForCommand();
      await mkdir(join(temp.outside, "outputs"));
      await symlink(temp.outside, join(temp.workspace, "link"));
      // The harness's checks and its creation race a real process exchanging `.agent` and a link.
      await whileExchanging(
        join(temp.workspace, ".agent"),
        join(temp.workspace, "link"),
        async () => {
          const deadline = Date.now() + 1500;
          for (let saves = 0; Date.now() < deadline; saves += 1) {
            save(store, `c${String(saves)}`, "secret\n");
            await new Promise((resolve) => setImmediate(resolve));
          }
        },
      );
      expect(outsideEntries()).toEqual(["outputs"]);
    },
  );
});
