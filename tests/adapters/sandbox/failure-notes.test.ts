import { describe, expect, it } from "vitest";
import type { CommandResult } from "../../../src/core/ports/command-runner.js";
import {
  failureNotes,
  NETWORK_OFF_NOTE,
  withNotes,
} from "../../../src/adapters/sandbox/failure-notes.js";
import { parseResourceLimits } from "../../../src/adapters/sandbox/resource-limits.js";

const limits = parseResourceLimits([
  "memory=256MiB",
  "processes=64",
  "file-size=10MiB",
  "cpu-time=5",
  "open-files=128",
]);

function result(exitCode: number | null, output: string): CommandResult {
  return { exitCode, output, truncated: false, timedOut: exitCode === null };
}

describe("failureNotes", () => {
  it.each([
    [
      134,
      "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
      "stopped: memory limit 256 MiB reached",
    ],
    [1, "[stderr] MemoryError", "stopped: memory limit 256 MiB reached"],
    [
      2,
      "[stderr] bash: xrealloc: cannot allocate 268042240 bytes",
      "stopped: memory limit 256 MiB reached",
    ],
    [
      null,
      "[stderr] bash: fork: retry: Resource temporarily unavailable",
      "stopped: process limit 64 reached",
    ],
    [153, "", "stopped: file size limit 10 MiB reached"],
    [
      1,
      "[stderr] head: error writing 'big': File too large",
      "stopped: file size limit 10 MiB reached",
    ],
    [152, "", "stopped: CPU time limit 5 s reached"],
    [1, "[stderr] Error: EMFILE: too many open files", "stopped: open files limit 128 reached"],
  ])("exit %s with %j: %s", (exitCode, output, note) => {
    expect(failureNotes(result(exitCode, output), { network: true, limits })).toEqual([note]);
  });

  it.each([
    [
      "forks refused at pids.max",
      1,
      { forkRefusals: 3, oomKills: 0, memoryFailures: 0 },
      ["stopped: process limit 64 reached"],
    ],
    [
      "an OOM kill",
      137,
      { forkRefusals: 0, oomKills: 1, memoryFailures: 0 },
      ["stopped: memory limit 256 MiB reached"],
    ],
    [
      "an OOM kill, the command exiting on its own",
      1,
      { forkRefusals: 0, oomKills: 2, memoryFailures: 5 },
      ["stopped: memory limit 256 MiB reached"],
    ],
    [
      "no OOM count (old kernel): failures and SIGKILL",
      137,
      { forkRefusals: 0, oomKills: undefined, memoryFailures: 4 },
      ["stopped: memory limit 256 MiB reached"],
    ],
    [
      "no OOM count: failures without SIGKILL (reclaim sufficed)",
      1,
      { forkRefusals: 0, oomKills: undefined, memoryFailures: 4 },
      [],
    ],
    [
      "the limit reached, reclaimed, no kill",
      137,
      { forkRefusals: 0, oomKills: 0, memoryFailures: 9 },
      [],
    ],
    [
      "both",
      137,
      { forkRefusals: 1, oomKills: 1, memoryFailures: 1 },
      ["stopped: process limit 64 reached", "stopped: memory limit 256 MiB reached"],
    ],
  ] as const)("a cgroup's count: %s", (_, exitCode, cgroup, notes) => {
    expect(
      failureNotes(result(exitCode, "[stderr] Killed"), { network: true, limits, cgroup }),
    ).toEqual(notes);
    expect(failureNotes(result(0, ""), { network: true, limits, cgroup })).toEqual([]);
  });

  it("says the network is off only when it is, for a failure that looks like the network", () => {
    const npm = result(1, "[stderr] npm error code ENOTCACHED");
    expect(failureNotes(npm, { network: false, limits })).toEqual([NETWORK_OFF_NOTE]);
    expect(failureNotes(npm, { network: true, limits })).toEqual([]);
    const curl = result(6, "[stderr] curl: (6) Could not resolve host: example.com");
    expect(failureNotes(curl, { network: false, limits })).toEqual([NETWORK_OFF_NOTE]);
    expect(failureNotes(result(1, "[stderr] test failed"), { network: false, limits })).toEqual([]);
  });

  it("adds nothing to a command that succeeded, whatever it printed", () => {
    expect(failureNotes(result(0, "ENOTFOUND out of memory"), { network: false, limits })).toEqual(
      [],
    );
  });

  it("puts the notes after the output, or after the tail of a cut one", () => {
    expect(withNotes(result(1, "boom"), ["a", "b"]).output).toBe("boom\n[sandbox] a\n[sandbox] b");
    const cut: CommandResult = {
      exitCode: 1,
      output: "head\n",
      truncated: true,
      timedOut: false,
      omitted: { bytes: 10, lines: 1, tail: "tail", totalBytes: 20 },
    };
    expect(withNotes(cut, ["a"])).toEqual({
      ...cut,
      omitted: { ...cut.omitted, tail: "tail\n[sandbox] a" },
    });
  });
});
