/**
 * Grants are consumed once, whatever races for them: six processes load the store and wait at a
 * start line, then all consume the same grant. Slow: each racer loads the store through tsx.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ApprovalStore } from "../../../src/adapters/state/index.js";

const DIGEST = "a".repeat(64);
const ctx = { runId: "run-1", callId: "call_1", tool: "run_command" };
let dir: string | undefined;

function stateDir(): string {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "approvals-race-")));
  return dir;
}

afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function request(id: string, expiresAt: string) {
  return {
    id,
    actionDigest: DIGEST,
    summary: 'run_command ["npm","test"]',
    risks: ["r"],
    expiresAt,
  };
}

describe("ApprovalStore under a race", () => {
  it("two processes racing for one grant: exactly one wins", async () => {
    const dir = stateDir();
    const store = new ApprovalStore(dir);
    store.saveRequest(
      request("req_000000000000000a", new Date(Date.now() + 3_600_000).toISOString()),
      ctx,
    );
    store.approve("req_000000000000000a", 60_000, "cli");
    const start = join(dir, "start");
    const script = new URL("../../support/consume-grant-process.ts", import.meta.url).pathname;
    const racers = Array.from({ length: 6 }, () => {
      const child = spawn(
        process.execPath,
        // All as the run that asked (two resumes of it, say): only its own grant counts.
        ["--import", "tsx", script, dir, DIGEST, start, ctx.runId],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      let out = "";
      let markReady: () => void = () => undefined;
      const ready = new Promise<void>((resolve) => (markReady = resolve));
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        if (out.startsWith("ready\n")) markReady();
      });
      const result = new Promise<string>((resolve, reject) => {
        child.on("error", reject);
        child.on("close", (code) => {
          markReady(); // A racer that died before it was ready fails below, not by a timeout.
          if (code === 0) resolve(out.replace(/^ready\n/u, "").trim());
          else reject(new Error(`racer exited ${String(code)}`));
        });
      });
      return { ready, result };
    });
    // Start when every racer has loaded and reached its busy wait (it says so), not after a guess.
    await Promise.all(racers.map((racer) => racer.ready));
    writeFileSync(start, "");
    const results = await Promise.all(racers.map((racer) => racer.result));
    expect(results.filter((result) => result === "won")).toHaveLength(1);
    expect(results.filter((result) => result === "lost")).toHaveLength(5);
    expect(existsSync(join(store.directory, "grants", `${DIGEST}.req_000000000000000a.json`))).toBe(
      false,
    );
  }, 30_000);
});
