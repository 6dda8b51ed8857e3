import { spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inheritedDescriptors } from "../../../src/adapters/sandbox/inherited-descriptors.js";
import { SandboxSetupError } from "../../../src/adapters/sandbox/sandbox-errors.js";
import { HAS_BWRAP } from "../../support/bubblewrap.js";

const SCRIPT = new URL("../../support/sandboxed-command-process.ts", import.meta.url).pathname;

const SUITE =
  "descriptors the harness inherited, with real bubblewrap" +
  (!HAS_BWRAP ? " (skipped: needs Linux with bwrap on PATH)" : "");

/**
 * Node marks the low descriptors it inherited close-on-exec at start-up, but not the others (40 and
 * 300 here; a job runner's 251 on this machine): spawn passes them straight to the child, and bwrap passes them on to the command: a file the harness's parent left open for
 * writing (a log, a make jobserver, a socket) would be writable from inside, whatever the mounts.
 */
describe.skipIf(!HAS_BWRAP)(SUITE, () => {
  let base: string;
  let ws: string;

  beforeEach(async () => {
    base = await mkdtemp(join(await realpath(tmpdir()), "bwrap-fds-"));
    ws = join(base, "ws");
    await mkdir(ws);
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  function runWithInherited(command: string, inherited: Readonly<Record<number, number>>) {
    const highest = Math.max(...Object.keys(inherited).map(Number));
    const stdio: ("ignore" | "pipe" | number)[] = ["ignore", "pipe", "pipe"];
    for (let fd = 3; fd <= highest; fd += 1) stdio.push(inherited[fd] ?? "ignore");
    const child = spawnSync(process.execPath, ["--import", "tsx", SCRIPT, ws, command], {
      stdio,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stderr).toBe("");
    return JSON.parse(child.stdout) as { exitCode: number; output: string };
  }

  it("a file outside the workspace open for writing in the harness stays unwritable", () => {
    const outside = join(base, "outside.log");
    writeFileSync(outside, "before\n");
    const low = openSync(outside, "a");
    const high = openSync(outside, "a");
    try {
      const result = runWithInherited(
        'for fd in 5 40 300; do echo "$fd $(readlink /proc/self/fd/$fd)"; echo pwned >&$fd; done',
        { 5: low, 40: high, 300: high },
      );
      expect(readFileSync(outside, "utf8")).toBe("before\n");
      expect(result.output).not.toContain(outside);
      expect(result.output).toContain("\n40 /dev/null\n");
      expect(result.output).toContain("\n300 /dev/null\n");
    } finally {
      closeSync(low);
      closeSync(high);
    }
  });
});

describe("inheritedDescriptors", () => {
  let proc: string;

  beforeEach(async () => {
    proc = await mkdtemp(join(tmpdir(), "fdinfo-"));
    await mkdir(join(proc, "fd"));
    await mkdir(join(proc, "fdinfo"));
  });

  afterEach(async () => {
    await rm(proc, { recursive: true, force: true });
  });

  function descriptor(fd: number, flags: string | undefined): void {
    writeFileSync(join(proc, "fd", String(fd)), "");
    if (flags !== undefined) {
      writeFileSync(join(proc, "fdinfo", String(fd)), `pos:\t0\nflags:\t${flags}\nmnt_id:\t1\n`);
    }
  }

  it("lists those above stdio without O_CLOEXEC, in order, and skips one closed meanwhile", () => {
    descriptor(0, "0100002");
    descriptor(2, "0100001");
    descriptor(4, "02000002");
    descriptor(251, "01");
    descriptor(30, "0102001");
    descriptor(9, undefined);
    expect(inheritedDescriptors(proc)).toEqual([30, 251]);
  });

  it("fails closed on a table it cannot read or flags it cannot parse", () => {
    expect(() => inheritedDescriptors(join(proc, "missing"))).toThrow(SandboxSetupError);
    descriptor(7, "zz");
    expect(() => inheritedDescriptors(proc)).toThrow(
      new SandboxSetupError("The sandbox cannot read the flags of descriptor 7"),
    );
  });
});
