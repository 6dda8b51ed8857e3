/**
 * One racing process for the run-lock test: for each of COUNT lock files (each left by a dead
 * holder), waits for its time slot (START_MS + k × SLOT_MS, a busy wait so all racers leave
 * together), then takes the lock over if it can, step by step with a random pause of up to
 * PAUSE_US microseconds before each step (a sleep, so that on a machine with fewer cores
 * than racers their steps still interleave), and keeps
 * what it got. Prints its pid and the indexes it won, one line of JSON.
 */
import { join } from "node:path";
import { isAlive, lockRunSteps } from "../../src/adapters/journal/index.js";

const [directory, startText, countText, slotText, pauseText] = process.argv.slice(2);
if (directory === undefined || startText === undefined) {
  throw new Error("usage: lock-run-process DIR START_MS COUNT SLOT_MS PAUSE_US");
}
const start = Number(startText);
const count = Number(countText ?? "100");
const slot = Number(slotText ?? "15");
const pauseUs = Number(pauseText ?? "0");
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Sleeps (the core goes to another racer) a random time up to PAUSE_US. */
function pause(): void {
  if (pauseUs > 0) Atomics.wait(sleeper, 0, 0, (Math.random() * pauseUs) / 1000);
}

const won: number[] = [];
for (let index = 0; index < count; index += 1) {
  while (Date.now() < start + index * slot) {
    // Busy wait: all processes try the same lock within microseconds of each other.
  }
  try {
    const steps = lockRunSteps(join(directory, `${String(index)}.lock`), process.pid, isAlive);
    for (;;) {
      pause();
      if (steps.next().done === true) break;
    }
    won.push(index);
  } catch {
    // Another live process holds it: that is the lock working.
  }
}
process.stdout.write(`${JSON.stringify({ pid: process.pid, won })}\n`);
// Stay alive (holding what was won) until the test has every racer's answer: a racer that exited
// early would leave dead holders' locks that a slower one could rightly take over.
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
