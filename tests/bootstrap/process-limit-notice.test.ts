import { describe, expect, it } from "vitest";
import { CommandCgroups } from "../../src/adapters/cgroup/index.js";
import { parseResourceLimits } from "../../src/adapters/sandbox/index.js";
import { unboundProcessLimitNotice } from "../../src/bootstrap/execution/process-limit-notice.js";

const noCgroups = () => new CommandCgroups({ mountinfo: "", selfCgroup: "" });
const binding = { processLimitBinds: () => ({ ok: true }) as const };

describe("the notice that the process limit does not bind", () => {
  it("is given to root when no cgroup can hold the limit, naming it and why", () => {
    expect(
      unboundProcessLimitNotice(parseResourceLimits(["processes=50"]), true, noCgroups()),
    ).toBe(
      "the sandbox's process limit (processes=50) does not bind: the agent runs as root, whom the " +
        "kernel exempts from RLIMIT_NPROC, and no cgroup can hold it here (no pids or memory " +
        "cgroup controller is mounted); commands may start any number of processes",
    );
  });

  it("names the default limit when none was given", () => {
    expect(unboundProcessLimitNotice(undefined, true, noCgroups())).toMatch(
      /^the sandbox's process limit \(processes=\d+\) does not bind: /,
    );
  });

  it("is not given when a cgroup holds the limit, when not root, or with no process limit", () => {
    const limits = parseResourceLimits(["processes=50"]);
    expect(unboundProcessLimitNotice(limits, true, binding)).toBeUndefined();
    expect(unboundProcessLimitNotice(limits, false, noCgroups())).toBeUndefined();
    const withoutProcesses = { ...limits, processes: undefined };
    expect(unboundProcessLimitNotice(withoutProcesses, true, noCgroups())).toBeUndefined();
  });

  it("a cgroup without the pids controller does not hold it", () => {
    const memoryOnly = {
      processLimitBinds: () =>
        ({ ok: false, reason: "no cgroup here holds the pids controller" }) as const,
    };
    expect(
      unboundProcessLimitNotice(parseResourceLimits(["processes=50"]), true, memoryOnly),
    ).toContain("(no cgroup here holds the pids controller)");
  });
});
