/**
 * The placeholder ledger's own files are read as the harness reads its files: a FIFO, a link or a
 * second name planted at them (by a command run with the sandbox off, say) refuses the command
 * with the ledger's words, never hangs the run with the lock held, never reads or writes elsewhere.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockRun } from "../../../src/adapters/journal/index.js";
import { DirectoryPlaceholderLedger } from "../../../src/adapters/sandbox/placeholder-ledger.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;
let ledger: string;
beforeEach(async () => {
  temp = await makeTempWorkspace();
  ledger = join(temp.base, "placeholders");
});
afterEach(() => temp.cleanup());

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return "ran";
}

const REFUSED =
  /^The sandbox refuses to run this command: it could not read which placeholders other runs in this workspace hold \(/;

describe("DirectoryPlaceholderLedger", () => {
  it("keeps what a run holds between updates", () => {
    const runA = new DirectoryPlaceholderLedger(ledger);
    runA.update((entries) => entries.set("gitconfig", { dev: 1, ino: 2, holders: [runA.holder] }));
    const seen = new DirectoryPlaceholderLedger(ledger).update((entries) =>
      entries.get("gitconfig"),
    );
    expect(seen).toEqual({ dev: 1, ino: 2, holders: [runA.holder] });
  });

  it.skipIf(process.platform === "win32")(
    "refuses a FIFO at ledger.json instead of waiting on it",
    () => {
      mkdirSync(ledger);
      execFileSync("mkfifo", [join(ledger, "ledger.json")]);
      expect(refusal(() => new DirectoryPlaceholderLedger(ledger).update(() => 0))).toMatch(
        REFUSED,
      );
      expect(existsSync(join(ledger, "lock"))).toBe(false);
    },
  );

  it.skipIf(process.platform === "win32")(
    "refuses a link at ledger.json and leaves its target as it was",
    () => {
      mkdirSync(ledger);
      const elsewhere = join(temp.evil, "other.json");
      writeFileSync(elsewhere, '{"x":{"dev":1,"ino":1,"holders":[]}}');
      symlinkSync(elsewhere, join(ledger, "ledger.json"));
      expect(refusal(() => new DirectoryPlaceholderLedger(ledger).update(() => 0))).toMatch(
        REFUSED,
      );
      expect(readFileSync(elsewhere, "utf8")).toBe('{"x":{"dev":1,"ino":1,"holders":[]}}');
    },
  );

  it("takes over the lock a killed run left, once, and leaves no lock behind", () => {
    mkdirSync(ledger);
    // A pid no process has (above Linux's highest): its run was killed inside its turn.
    writeFileSync(join(ledger, "lock"), "4194399 0123456789abcdef\n");
    const run = new DirectoryPlaceholderLedger(ledger);
    run.update((entries) => entries.set("gitconfig", { dev: 1, ino: 2, holders: [run.holder] }));
    expect(existsSync(join(ledger, "lock"))).toBe(false);
    expect(readdirSync(ledger).sort()).toEqual(["ledger.json"]);
  });

  it("waits for nobody but the live run that holds the lock, and says so when it keeps it", () => {
    mkdirSync(ledger);
    // This very process holds the run lock's file: a live holder, the way another run would.
    const held = lockRun(join(ledger, "lock"));
    try {
      expect(refusal(() => new DirectoryPlaceholderLedger(ledger, 30).update(() => 0))).toBe(
        `The sandbox refuses to run this command: it could not read which placeholders other runs in this workspace hold (${join(ledger, "lock")}: another run kept it locked), and without that a placeholder could be removed while another command relies on it; try again, or run with --sandbox off`,
      );
    } finally {
      held.release();
    }
    expect(new DirectoryPlaceholderLedger(ledger).update(() => "after")).toBe("after");
  });

  it.skipIf(process.platform === "win32")("refuses a ledger folder that is a link", () => {
    symlinkSync(temp.evil, ledger);
    expect(refusal(() => new DirectoryPlaceholderLedger(ledger).update(() => 0))).toMatch(REFUSED);
    expect(existsSync(join(temp.evil, "ledger.json"))).toBe(false);
    expect(existsSync(join(temp.evil, "lock"))).toBe(false);
  });
});
