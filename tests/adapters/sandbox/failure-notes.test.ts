import { describe, expect, it } from "vitest";
import type { CommandResult } from "../../../src/core/ports/command-runner.js";
import {
  failureNotes,
  GIT_READ_ONLY_NOTE,
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
  const maybe = (limit: string): string =>
    `may have hit the ${limit} (going by the output's words)`;

  it.each([
    [
      134,
      "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
      maybe("memory limit 256 MiB"),
    ],
    [1, "[stderr] MemoryError", maybe("memory limit 256 MiB")],
    [2, "[stderr] bash: xrealloc: cannot allocate 268042240 bytes", maybe("memory limit 256 MiB")],
    [
      null,
      "[stderr] bash: fork: retry: Resource temporarily unavailable",
      maybe("process limit 64"),
    ],
    [153, "", "stopped: file size limit 10 MiB reached"],
    [1, "[stderr] head: error writing 'big': File too large", maybe("file size limit 10 MiB")],
    [152, "", "stopped: CPU time limit 5 s reached"],
    [1, "[stderr] Error: EMFILE: too many open files", maybe("open files limit 128")],
  ])("exit %s with %j: %s", (exitCode, output, note) => {
    expect(failureNotes(result(exitCode, output), { network: true, limits })).toEqual([note]);
  });

  it("names a limit its own signal shows once, whatever the output also says", () => {
    const cut = result(153, "[stderr] bash: line 1: 7 File size limit exceeded head -c 10G");
    expect(failureNotes(cut, { network: true, limits })).toEqual([
      "stopped: file size limit 10 MiB reached",
    ]);
  });

  it("reads nothing into words that merely mention a limit", () => {
    const text = "evicts entries when out of memory\nexpected EMFILE to be handled\n";
    expect(failureNotes(result(1, text), { network: false, limits })).toEqual([]);
  });

  it("a cgroup that counted nothing leaves only the output's words, worded as possible", () => {
    const cgroup = { forkRefusals: 0, oomKills: 0, memoryFailures: 0 };
    const text = "[stderr] MemoryError\n[stderr] OSError: [Errno 24] Too many open files";
    expect(failureNotes(result(1, text), { network: true, limits, cgroup })).toEqual([
      maybe("memory limit 256 MiB"),
      maybe("open files limit 128"),
    ]);
  });

  it.each([
    [
      "curl",
      "[stderr] curl: (7) Failed to connect to 127.0.0.1 port 8765: Couldn't connect to server",
    ],
    ["curl, resolving", "[stderr] curl: (6) Could not resolve host: example.com"],
    ["wget", "[stderr] Connecting to 127.0.0.1:8765... failed: Connection refused."],
    ["wget, resolving", "[stderr] wget: unable to resolve host address 'example.com'"],
    ["npm", "[stderr] npm error code ENOTCACHED"],
    ["npm, connecting", "[stderr] npm error code ECONNREFUSED"],
    [
      "pip",
      "[stderr] WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError(...: Failed to establish a new connection: [Errno 101] Network is unreachable')",
    ],
    [
      "git",
      "[stderr] fatal: unable to access 'https://github.com/a/b.git/': Could not resolve host: github.com",
    ],
    [
      "node fetch",
      "[stderr] TypeError: fetch failed\n[stderr]   cause: Error: connect ECONNREFUSED 127.0.0.1:8765",
    ],
    ["node http", "[stderr] Error: getaddrinfo EAI_AGAIN registry.npmjs.org"],
    ["go", "[stderr] dial tcp 127.0.0.1:8765: connect: connection refused"],
    // The sandbox sets PIP_NO_INDEX=1 (network off): pip then says no version exists.
    [
      "pip, with no index",
      "[stderr] ERROR: Could not find a version that satisfies the requirement requests-mock (from versions: none)\n[stderr] ERROR: No matching distribution found for requests-mock",
    ],
  ])("a failed %s connection with the network off gets the network note", (_, output) => {
    expect(failureNotes(result(1, output), { network: false, limits })).toEqual([NETWORK_OFF_NOTE]);
    expect(failureNotes(result(1, output), { network: true, limits })).toEqual([]);
  });

  it.each([
    "[stderr] fatal: Unable to create '/ws/.git/index.lock': Read-only file system",
    "[stderr] error: insufficient permission for adding an object to repository database .git/objects",
  ])("git refused its own .git gets the read-only note: %s", (output) => {
    expect(failureNotes(result(128, output), { network: true, limits })).toEqual([
      GIT_READ_ONLY_NOTE,
    ]);
    expect(failureNotes(result(0, output), { network: true, limits })).toEqual([]);
    // Not git's own complaint about its .git: a copy's, a printed line, another folder's.
    for (const other of [
      "[stderr] cp: cannot create 'x': Read-only file system",
      "fatal: Unable to create '/ws/.git/index.lock': Read-only file system",
      "[stderr] fatal: Unable to create '/ws/vendor.git/index.lock': Read-only file system",
    ]) {
      expect(failureNotes(result(1, other), { network: true, limits })).toEqual([]);
    }
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

  it("keeps the notes apart from the output, after any the result has, the output untouched", () => {
    const noted = withNotes(withNotes(result(1, "boom\n[sandbox] b"), ["a"]), ["b\nc"]);
    expect(noted).toEqual({ ...result(1, "boom\n[sandbox] b"), notes: ["a", "b\nc"] });
    const cut: CommandResult = {
      exitCode: 1,
      output: "head\n",
      truncated: true,
      timedOut: false,
      omitted: { bytes: 10, lines: 1, tail: "tail", totalBytes: 20 },
    };
    expect(withNotes(cut, ["a"])).toEqual({ ...cut, notes: ["a"] });
    expect(withNotes(cut, [])).toBe(cut);
  });
});
