/**
 * `.agent/commands.json` that cannot be opened for a reason other than being absent (EACCES, EIO,
 * …): the message names the file in the workspace, not the descriptor path (`/proc/self/fd/N/…`)
 * the harness reads it through.
 */
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CommandAllowlistError,
  loadCommandAllowlist,
} from "../../../src/adapters/commands/index.js";
import { readHarnessInputIn } from "../../../src/adapters/filesystem/index.js";
import { scratchDirectories } from "../../support/scratch-directories.js";

/** Opening a path that ends with this name fails with EACCES, as node words it. */
const failing = vi.hoisted(() => ({ name: undefined as string | undefined }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const open = ((path: string, ...rest: unknown[]) => {
    if (failing.name !== undefined && path.endsWith(`/${failing.name}`)) {
      throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), {
        code: "EACCES",
      });
    }
    return (fs.openSync as (...args: unknown[]) => number)(path, ...rest);
  }) as typeof fs.openSync;
  return { ...fs, default: { ...fs, openSync: open }, openSync: open };
});

afterEach(() => {
  failing.name = undefined;
});

const scratch = scratchDirectories("commands-errors-");
function workspaceWithCommands(): string {
  const ws = realpathSync(scratch());
  mkdirSync(join(ws, ".agent"));
  writeFileSync(join(ws, ".agent", "commands.json"), '{"commands": []}');
  return ws;
}

describe("a commands file that cannot be opened", () => {
  it("readHarnessInputIn names the file by its directory's path", () => {
    const ws = workspaceWithCommands();
    const directory = join(ws, ".agent");
    failing.name = "commands.json";
    expect(() => readHarnessInputIn(directory, "commands.json", 1024)).toThrow(
      `EACCES: permission denied, open '${join(directory, "commands.json")}'`,
    );
  });

  it("loadCommandAllowlist says which workspace file, never /proc/self/fd", () => {
    const ws = workspaceWithCommands();
    failing.name = "commands.json";
    let message = "";
    try {
      loadCommandAllowlist(ws);
    } catch (error) {
      expect(error).toBeInstanceOf(CommandAllowlistError);
      message = (error as Error).message;
    }
    expect(message).toBe(
      `Cannot read .agent/commands.json: EACCES: permission denied, open '${join(ws, ".agent", "commands.json")}'`,
    );
  });
});
