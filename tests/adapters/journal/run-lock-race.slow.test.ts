/**
 * Four real processes race, through 80 dead holders' locks, to take each over: never two hold one,
 * and each lock file names its holder. About five seconds of real time (the racers load, then take
 * a 25 ms slot per lock), so it is in the slow project; the lock's steps are checked one by one, in
 * every order, in run-lock-interleavings.slow.test.ts, and the plain cases in file-run-journal.test.ts.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDirectories } from "../../support/scratch-directories.js";

describe("lockRun between several live processes taking over dead holders' locks", () => {
  const scratch = scratchDirectories("lock-race-");
  it("never lets two hold one lock, and the lock file names the one that holds it", async () => {
    const directory = scratch();
    const script = new URL("../../support/lock-run-process.ts", import.meta.url).pathname;
    const count = 80;
    // Each lock was left by a holder that was killed (no live process has this pid here).
    for (let index = 0; index < count; index += 1) {
      writeFileSync(join(directory, `${String(index)}.lock`), `${2 ** 22 + 1}\n`);
    }
    // All processes load first, then race for the same lock in each 25 ms slot, sleeping up to
    // 2 ms at random before each of the lock's steps so that their steps interleave.
    const start = String(Date.now() + 3000);
    const children = Array.from({ length: 4 }, () =>
      spawn(
        process.execPath,
        ["--import", "tsx", script, directory, start, String(count), "25", "2000"],
        { stdio: ["pipe", "pipe", "inherit"] },
      ),
    );
    const answer = (child: (typeof children)[number]) =>
      new Promise<{ pid: number; won: number[] }>((resolve, reject) => {
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          if (out.endsWith("\n")) resolve(JSON.parse(out) as { pid: number; won: number[] });
        });
        child.on("error", reject);
        child.on("close", (code) => {
          reject(new Error(`racer exited ${String(code)} early`));
        });
      });
    const exited = children.map(
      (child) =>
        new Promise((resolve) => {
          child.on("close", resolve);
        }),
    );
    const racers = await Promise.all(children.map(answer));
    // Every racer answered while all were alive; now they may let go.
    for (const child of children) child.stdin.end();
    expect(await Promise.all(exited)).toEqual([0, 0, 0, 0]);
    const winners = (index: number) => racers.filter((r) => r.won.includes(index));
    const doubled = Array.from({ length: count }, (_, index) => index).filter(
      (index) => winners(index).length !== 1,
    );
    expect(doubled).toEqual([]);
    for (let index = 0; index < count; index += 1) {
      const holder = readFileSync(join(directory, `${String(index)}.lock`), "utf8").split(" ")[0];
      expect(Number(holder)).toBe(winners(index)[0]?.pid);
    }
    // No draft or claim was left behind by processes that lived.
    expect(readdirSync(directory).filter((name) => !name.endsWith(".lock"))).toEqual([]);
  }, 60_000);
});
