/**
 * Taking over a dead holder's run lock, with several contenders interleaved step by step (the
 * lock's own steps, `lockRunSteps`, on real files): every schedule with up to three preemptions
 * for three contenders, and seeded random schedules for more of them, some dying midway. At every
 * step at most one live contender holds the lock, and the lock file is that one's.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  lockRunSteps,
  RunLockedError,
  type LockStep,
  type RunLock,
} from "../../../src/adapters/journal/index.js";
import { seededRandom } from "../../support/seeded-random.js";
import { scratchDirectories } from "../../support/scratch-directories.js";

/** No live process has this pid here; it stands for the holder that was killed. */
const DEAD_HOLDER = 2 ** 22 + 1;
const FIRST_PID = 2 ** 22 + 100;

interface Contender {
  readonly pid: number;
  readonly steps: Generator<LockStep, RunLock, undefined>;
  state: "trying" | "holds" | "refused" | "died";
}

/** Picks which runnable contender takes its next step (`current`: the one that took the last). */
type Chooser = (runnable: number[], current: number | undefined) => number;

interface Schedule {
  readonly contenders: number;
  readonly deadLock: string;
  readonly choose: Chooser;
  /** Whether the contender about to step dies instead (kill -9: no cleanup of any kind). */
  readonly dies?: (index: number) => boolean;
}

function lockHolder(path: string): number | undefined {
  try {
    return Number(readFileSync(path, "utf8").trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
}

const scratch = scratchDirectories("lock-steps-");

/** Runs one schedule to the end, checking the invariant after every step. */
function play(schedule: Schedule): { path: string; contenders: Contender[]; alive: Set<number> } {
  const path = join(scratch(), "run.lock");
  writeFileSync(path, schedule.deadLock);
  const alive = new Set<number>();
  const contenders: Contender[] = [];
  for (let index = 0; index < schedule.contenders; index += 1) {
    const pid = FIRST_PID + index;
    alive.add(pid);
    contenders.push({ pid, steps: lockRunSteps(path, pid, (p) => alive.has(p)), state: "trying" });
  }
  let current: number | undefined;
  for (;;) {
    const runnable = contenders.flatMap((c, index) => (c.state === "trying" ? [index] : []));
    if (runnable.length === 0) break;
    current = schedule.choose(runnable, current);
    const contender = contenders[current];
    if (contender === undefined) throw new Error(`no contender ${String(current)}`);
    if (schedule.dies?.(current) === true) {
      alive.delete(contender.pid);
      contender.state = "died";
      continue;
    }
    step(contender);
    const holders = contenders.filter((c) => c.state === "holds" && alive.has(c.pid));
    // Plain checks here: this runs after every step of thousands of schedules.
    if (holders.length > 1) throw new Error(`${String(holders.length)} live holders at once`);
    for (const holder of holders) {
      const file = lockHolder(path);
      if (file !== holder.pid)
        throw new Error(`${String(holder.pid)} holds, the lock says ${String(file)}`);
    }
  }
  return { path, contenders, alive };
}

function step(contender: Contender): void {
  try {
    if (contender.steps.next().done === true) contender.state = "holds";
  } catch (error) {
    if (!(error instanceof RunLockedError)) throw error;
    contender.state = "refused";
  }
}

/** Runs one contender's remaining steps without interruption. */
function finish(steps: Generator<LockStep, RunLock, undefined>): RunLock {
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/**
 * Every schedule with at most `bound` preemptions (switching away from a contender that could go
 * on), each exactly once: run, then redo the deepest choice that has an untried alternative.
 */
function everySchedule(
  contenders: number,
  deadLock: string,
  bound: number,
  check: (result: ReturnType<typeof play>) => void,
): number {
  let prefix: number[] = [];
  let count = 0;
  for (;;) {
    const trace: { order: number[]; taken: number; goesOn: boolean; preemptions: number }[] = [];
    let preemptions = 0;
    const choose: Chooser = (runnable, current) => {
      const goesOn = current !== undefined && runnable.includes(current);
      const order = goesOn ? [current, ...runnable.filter((i) => i !== current)] : runnable;
      const forced = prefix[trace.length];
      const taken = forced ?? order[0] ?? 0;
      trace.push({ order, taken, goesOn, preemptions });
      if (goesOn && taken !== current) preemptions += 1;
      return taken;
    };
    check(play({ contenders, deadLock, choose }));
    count += 1;
    prefix = [];
    for (let depth = trace.length - 1; depth >= 0 && prefix.length === 0; depth -= 1) {
      const choice = trace[depth];
      if (choice === undefined) continue;
      for (const alternative of order(choice)) {
        // Leaving a contender that could go on costs a preemption; after it ends, any is free.
        if (choice.preemptions + (choice.goesOn ? 1 : 0) <= bound) {
          prefix = [...trace.slice(0, depth).map((t) => t.taken), alternative];
          break;
        }
      }
    }
    if (prefix.length === 0) return count;
  }
}

/** The choices not yet tried at one step of a schedule, in order. */
function order(choice: { order: number[]; taken: number }): number[] {
  return choice.order.slice(choice.order.indexOf(choice.taken) + 1);
}

function exactlyOneHolds({ contenders, path }: ReturnType<typeof play>): void {
  const holders = contenders.filter((c) => c.state === "holds");
  expect(holders).toHaveLength(1);
  expect(lockHolder(path)).toBe(holders[0]?.pid);
}

const DEAD_LOCKS = {
  "a dead holder's lock": `${String(DEAD_HOLDER)} 00112233445566778899\n`,
  "a lock in the older format (pid only)": `${String(DEAD_HOLDER)}\n`,
  "a damaged lock (no pid)": "",
};

describe("lockRunSteps: taking over a dead holder's lock, contenders interleaved", () => {
  for (const [name, deadLock] of Object.entries(DEAD_LOCKS)) {
    it(`three contenders, ${name}: every schedule with up to two preemptions leaves exactly one holder`, () => {
      const count = everySchedule(3, deadLock, 2, exactlyOneHolds);
      expect(count).toBeGreaterThan(100);
    });
  }

  it("four and five contenders, 300 seeded random schedules each: exactly one holder", () => {
    const random = seededRandom(17);
    for (const contenders of [4, 5]) {
      for (let run = 0; run < 300; run += 1) {
        const result = play({
          contenders,
          deadLock: DEAD_LOCKS["a dead holder's lock"],
          choose: (runnable) => runnable[Math.floor(random() * runnable.length)] ?? 0,
        });
        exactlyOneHolds(result);
      }
    }
  });

  it("a contender delayed before its claim never displaces a newer lock, even one made by the dead holder's reused pid", () => {
    const path = join(scratch(), "run.lock");
    const alive = new Set([DEAD_HOLDER, FIRST_PID, FIRST_PID + 1]);
    const isLive = (p: number) => alive.has(p);
    // The holder made the lock the usual way, then was killed.
    finish(lockRunSteps(path, DEAD_HOLDER, isLive));
    alive.delete(DEAD_HOLDER);
    const late = lockRunSteps(path, FIRST_PID, isLive);
    // It saw the dead holder's lock and is about to claim it...
    expect([late.next().value, late.next().value, late.next().value]).toEqual([
      "create",
      "observe",
      "claim",
    ]);
    // ...when another takes the lock over and lets go, and a new process that got the dead
    // holder's pid takes the lock (the same pid in the same place: only the nonce tells them apart).
    finish(lockRunSteps(path, FIRST_PID + 1, isLive)).release();
    alive.add(DEAD_HOLDER);
    finish(lockRunSteps(path, DEAD_HOLDER, isLive));
    const newer = readFileSync(path, "utf8");
    expect(() => finish(late)).toThrow(RunLockedError);
    expect(readFileSync(path, "utf8")).toBe(newer);
  });

  it("contenders killed at random steps never let two hold it, and never wedge it: a newcomer then gets it", () => {
    const random = seededRandom(29);
    for (let run = 0; run < 500; run += 1) {
      const result = play({
        contenders: 4,
        deadLock: DEAD_LOCKS["a dead holder's lock"],
        choose: (runnable) => runnable[Math.floor(random() * runnable.length)] ?? 0,
        dies: () => random() < 0.08,
      });
      const live = result.contenders.filter((c) => c.state === "holds" && result.alive.has(c.pid));
      if (live.length === 1) continue;
      // Nobody alive holds it: whatever the dead left behind, a newcomer takes it over.
      const newcomer = lockRunSteps(result.path, FIRST_PID + 99, (p) => result.alive.has(p));
      let next = newcomer.next();
      while (next.done !== true) next = newcomer.next();
      expect(lockHolder(result.path)).toBe(FIRST_PID + 99);
      // And it cleared the drafts and claims the dead left behind.
      expect(readdirSync(dirname(result.path))).toEqual(["run.lock"]);
    }
  });
});
