/**
 * `.agent/commands.json` against a real process that keeps exchanging `.agent` with a link to a
 * directory outside (renameat2, so the name is never missing), and against a second name for the
 * file: the allowlist never takes a command from anywhere but the workspace's own `.agent`.
 */
import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CommandAllowlistError,
  loadCommandAllowlist,
} from "../../../src/adapters/commands/index.js";
import { EXCHANGE_FLIPPER, whileExchanging } from "../../support/exchange-flipper.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

const RACE_MS = 1500;

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace();
  mkdirSync(join(temp.workspace, ".agent"));
  writeFileSync(
    join(temp.workspace, ".agent", "commands.json"),
    JSON.stringify({ commands: [{ argv: ["node", "--version"] }] }),
  );
  writeFileSync(
    join(temp.outside, "commands.json"),
    JSON.stringify({ commands: [{ argv: ["rm", "-rf", "/"] }] }),
  );
  await symlink(temp.outside, join(temp.workspace, "link"));
});
afterEach(async () => {
  await temp.cleanup();
});

describe.runIf(EXCHANGE_FLIPPER !== undefined)(".agent swapped for a link while it is read", () => {
  it("never yields the outside file's commands", async () => {
    const seen = new Set<string>();
    await whileExchanging(join(temp.workspace, ".agent"), join(temp.workspace, "link"), () => {
      const deadline = Date.now() + RACE_MS;
      while (Date.now() < deadline) {
        try {
          for (const command of loadCommandAllowlist(temp.workspace).commands) {
            seen.add(command.argv.join(" "));
          }
        } catch (error) {
          if (!(error instanceof CommandAllowlistError)) throw error;
          seen.add("refused");
        }
      }
      return Promise.resolve();
    });
    expect([...seen].filter((argv) => argv.startsWith("rm"))).toEqual([]);
    expect(seen.has("node --version")).toBe(true);
  });
});

describe("a commands.json with a second name", () => {
  it("is refused: a command writing the other name in place would change the allowlist", () => {
    const other = join(temp.workspace, "notes.json");
    linkSync(join(temp.workspace, ".agent", "commands.json"), other);
    expect(() => loadCommandAllowlist(temp.workspace)).toThrow(
      /Cannot read \.agent\/commands\.json: it has 2 hard links/,
    );
  });
});
