/**
 * One racing process for the run-lock test: for each of COUNT lock files, waits for its time slot
 * (START_MS + k × SLOT_MS, a busy wait so both racers leave together), tries to take the lock and
 * keeps what it got. Prints the indexes it won, one line of JSON.
 */
import { join } from "node:path";
import { lockRun } from "../../src/adapters/journal/index.js";

const [directory, startText, countText, slotText] = process.argv.slice(2);
if (directory === undefined || startText === undefined) {
  throw new Error("usage: lock-run-process DIR START_MS COUNT SLOT_MS");
}
const start = Number(startText);
const count = Number(countText ?? "100");
const slot = Number(slotText ?? "15");
const won: number[] = [];
for (let index = 0; index < count; index += 1) {
  while (Date.now() < start + index * slot) {
    // Busy wait: both processes try the same lock within microseconds of each other.
  }
  try {
    lockRun(join(directory, `${String(index)}.lock`));
    won.push(index);
  } catch {
    // The other process holds it, alive: that is the lock working.
  }
}
process.stdout.write(`${JSON.stringify(won)}\n`);
