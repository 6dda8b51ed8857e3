/**
 * The file tools at their edges, through the real tools on a real temp directory: how much a write
 * may produce, names that have no UTF-8 form, and files that are not regular files.
 */
import { spawnSync } from "node:child_process";
import { readFile, readdir, stat, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WRITE_LIMIT_BYTES } from "../../src/adapters/filesystem/node-filesystem.js";
import type { ToolResult } from "../../src/core/tools/tool-result.js";
import type { ToolRegistry } from "../../src/core/tools/tool-registry.js";
import { callTool, errorResult as error, fileToolRegistry } from "../support/file-tool-calls.js";
import { CAN_MKNOD, MKNOD_MISSING } from "../support/device-nodes.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/temp-workspace.js";

let temp: TempWorkspace;
let registry: ToolRegistry;

beforeEach(async () => {
  temp = await makeTempWorkspace();
  registry = fileToolRegistry(temp.ws);
});
afterEach(() => temp.cleanup());

const call = (name: string, args: unknown): Promise<ToolResult> => callTool(registry, name, args);

describe("what a write may produce", () => {
  it("is 4 MiB, the size edit_file can edit again", () => {
    expect(WRITE_LIMIT_BYTES).toBe(4 * 1024 * 1024);
  });

  it("write_file refuses content over the limit before creating anything", async () => {
    const content = "é".repeat(WRITE_LIMIT_BYTES / 2) + "x";
    expect(await call("write_file", { path: "new/big.txt", content })).toEqual(
      error(
        "file_too_large",
        `new/big.txt would be ${WRITE_LIMIT_BYTES + 1} bytes, over the ${WRITE_LIMIT_BYTES}-byte ` +
          "write limit; nothing was written. Keep files the tools write under the limit",
      ),
    );
    expect(await readdir(temp.ws)).toEqual([]);
  });

  it("write_file writes exactly the limit", async () => {
    const content = "a".repeat(WRITE_LIMIT_BYTES);
    expect(await call("write_file", { path: "full.txt", content })).toEqual({
      content: `Wrote ${WRITE_LIMIT_BYTES} UTF-8 bytes to full.txt`,
      isError: false,
    });
  });

  it("edit_file with replace_all cannot grow a file past the limit; the file is unchanged", async () => {
    const original = "ab\n".repeat(400_000); // 1.2 MB, 400,000 occurrences of "a"
    await writeFile(join(temp.ws, "grow.txt"), original);
    const grown = 1_200_000 + 400_000 * 99;
    expect(
      await call("edit_file", {
        path: "grow.txt",
        old_string: "a",
        new_string: "a".repeat(100),
        replace_all: true,
      }),
    ).toEqual(
      error(
        "file_too_large",
        `grow.txt would be ${grown} bytes, over the ${WRITE_LIMIT_BYTES}-byte write limit; ` +
          "nothing was written. Keep files the tools write under the limit",
      ),
    );
    expect(await readFile(join(temp.ws, "grow.txt"), "utf8")).toBe(original);
    expect(await readdir(temp.ws)).toEqual(["grow.txt"]);
  });

  it("edit_file may still shrink or slightly grow a large file", async () => {
    await writeFile(join(temp.ws, "big.txt"), "ab\n".repeat(400_000));
    expect(
      await call("edit_file", {
        path: "big.txt",
        old_string: "a",
        new_string: "aa",
        replace_all: true,
      }),
    ).toEqual({ content: "Replaced 400000 occurrences in big.txt", isError: false });
    expect((await stat(join(temp.ws, "big.txt"))).size).toBe(1_600_000);
  });
});

describe("a lone surrogate has no UTF-8 form", () => {
  it.each([
    ["write_file", { path: "a\ud800.txt", content: "x" }],
    ["edit_file", { path: "a\udc00.txt", old_string: "x", new_string: "y" }],
    ["read_file", { path: "dir\ud83d/a.txt" }],
  ])("%s refuses it instead of writing under U+FFFD", async (name, args) => {
    const shown = JSON.stringify(args.path);
    expect(await call(name, args)).toEqual(
      error("invalid_path", `path must be valid Unicode, without lone surrogates: ${shown}`),
    );
    expect(await readdir(temp.ws)).toEqual([]);
  });

  it("a surrogate pair (an emoji) is a name like any other", async () => {
    expect(await call("write_file", { path: "🙂.txt", content: "x" })).toEqual({
      content: "Wrote 1 UTF-8 bytes to 🙂.txt",
      isError: false,
    });
    expect(await readdir(temp.ws)).toEqual(["🙂.txt"]);
  });

  it("glob refuses a pattern with one: it could only ever match nothing", async () => {
    expect(await call("glob", { pattern: "*\ud800" })).toEqual(
      error("invalid_path", 'pattern must be valid Unicode, without lone surrogates: "*\\ud800"'),
    );
  });
});

const onLinux = process.platform === "linux";

describe.skipIf(!onLinux)("files that are not regular files (Linux)", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => {
      if (server === undefined) resolve();
      else
        server.close(() => {
          resolve();
        });
    });
    server = undefined;
  });

  async function listenOn(path: string): Promise<void> {
    const listening = createServer();
    server = listening;
    await new Promise<void>((resolve) => listening.listen(path, resolve));
  }

  async function expectRefusedEverywhere(path: string, message: string): Promise<void> {
    const refused = error("invalid_path", message);
    expect(await call("read_file", { path })).toEqual(refused);
    expect(await call("write_file", { path, content: "x" })).toEqual(refused);
    expect(await call("edit_file", { path, old_string: "x", new_string: "y" })).toEqual(refused);
  }

  it("a socket", async () => {
    await listenOn(join(temp.ws, "agent.sock"));
    await expectRefusedEverywhere("agent.sock", "agent.sock is not a regular file");
    expect((await stat(join(temp.ws, "agent.sock"))).isSocket()).toBe(true);
  });

  it("a FIFO, without blocking", async () => {
    expect(spawnSync("mkfifo", [join(temp.ws, "pipe")]).status).toBe(0);
    await expectRefusedEverywhere("pipe", "pipe is not a regular file");
    expect((await stat(join(temp.ws, "pipe"))).isFIFO()).toBe(true);
  });

  it.skipIf(!CAN_MKNOD)(
    `a character device made in the workspace${CAN_MKNOD ? "" : ` ${MKNOD_MISSING}`}`,
    async () => {
      expect(spawnSync("mknod", [join(temp.ws, "null"), "c", "1", "3"]).status).toBe(0);
      await expectRefusedEverywhere("null", "null is not a regular file");
      expect((await stat(join(temp.ws, "null"))).isCharacterDevice()).toBe(true);
    },
  );

  it("/dev/null linked into the workspace is outside it", async () => {
    await symlink("/dev/null", join(temp.ws, "devnull"));
    const refused = error("path_escape", "path resolves outside the workspace: devnull");
    expect(await call("read_file", { path: "devnull" })).toEqual(refused);
    expect(await call("write_file", { path: "devnull", content: "x" })).toEqual(refused);
    expect(await call("edit_file", { path: "devnull", old_string: "x", new_string: "y" })).toEqual(
      refused,
    );
  });

  it("a directory", async () => {
    expect(spawnSync("mkdir", [join(temp.ws, "dir")]).status).toBe(0);
    const refused = error("is_directory", "dir is a directory, not a file");
    expect(await call("read_file", { path: "dir" })).toEqual(refused);
    expect(await call("write_file", { path: "dir", content: "x" })).toEqual(refused);
    expect(await call("edit_file", { path: "dir", old_string: "x", new_string: "y" })).toEqual(
      refused,
    );
  });
});
