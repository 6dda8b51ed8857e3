import { lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createShellExecution,
  startShellExecution,
  UNAVAILABLE,
  type ShellExecutionOptions,
} from "../../../src/adapters/execution/shell-execution.js";
import { DEFAULT_RESOURCE_LIMITS } from "../../../src/adapters/sandbox/index.js";
import { hostExecutable } from "../../support/host-executables.js";

const HAS_SANDBOX =
  process.platform === "linux" &&
  hostExecutable("bwrap") !== undefined &&
  hostExecutable("bash") !== undefined &&
  hostExecutable("prlimit") !== undefined;
const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };

const SUITE =
  "the sandbox's settings, decided once at start" +
  (!HAS_SANDBOX ? " (skipped: needs Linux with bwrap, bash and prlimit on PATH)" : "");

describe.skipIf(!HAS_SANDBOX)(SUITE, () => {
  let base: string;
  let ws: string;
  let options: ShellExecutionOptions;

  beforeEach(() => {
    base = mkdtempSync(join(realpathSync(tmpdir()), "sandbox-settings-"));
    ws = join(base, "ws");
    mkdirSync(ws);
    options = {
      sandbox: "required",
      network: false,
      shell: "posix",
      workspace: ws,
      env: process.env,
      platform: "linux",
      passEnv: [],
      limits: DEFAULT_RESOURCE_LIMITS,
    };
  });

  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it("applies the limits inside the sandbox, and says the network is off", async () => {
    const execution = await createShellExecution(options);
    expect(execution.networkOff).toBe(true);
    expect(execution.notices).toBeUndefined();
    // bash counts data in KiB and file size in 1 KiB blocks; hard limits too, so none can be raised.
    const limits = "ulimit -d; ulimit -u; ulimit -f; ulimit -t; ulimit -n; ulimit -H -d -u -f -n";
    const result = await execution.runner.run(limits, ws, LIMITS);
    expect(result.output.split("\n").slice(0, 5)).toEqual([
      "4194304",
      "1024",
      "2097152",
      "600",
      "4096",
    ]);
    expect(
      result.output
        .split("\n")
        .slice(5, 9)
        .map((row) => row.split(/\s+/).at(-1)),
    ).toEqual(["4194304", "1024", "2097152", "4096"]);
    const started = await startShellExecution({ ...options, sandbox: "auto", network: true });
    expect(started.networkOff).toBe(false);
    expect((await started.ready).networkOff).toBe(false);
  });

  it("binds the per-workspace cache writable; a symlinked one is left alone and the person told", async () => {
    const cacheDirectory = join(base, "state", "sandbox-cache");
    mkdirSync(join(base, "state"));
    const execution = await createShellExecution({ ...options, cacheDirectory });
    expect(execution.notices).toBeUndefined();
    const wrote = await execution.runner.run("touch /tmp/.agent-cache/made", ws, LIMITS);
    expect(wrote.exitCode).toBe(0);
    expect(lstatSync(join(cacheDirectory, "made")).isFile()).toBe(true);

    const elsewhere = join(base, "elsewhere");
    mkdirSync(elsewhere);
    const linked = join(base, "state", "linked-cache");
    symlinkSync(elsewhere, linked);
    const fallback = await createShellExecution({ ...options, cacheDirectory: linked });
    const [notice] = fallback.notices ?? [];
    const fresh = /caches in (\S+)$/.exec(notice ?? "")?.[1] ?? "";
    expect(notice).toBe(
      `the sandbox cache ${linked} is a symbolic link; it is not used, this run caches in ${fresh}`,
    );
    await fallback.runner.run("touch /tmp/.agent-cache/made", ws, LIMITS);
    expect(lstatSync(join(fresh, "made")).isFile()).toBe(true);
    expect(() => lstatSync(join(elsewhere, "made"))).toThrow();
    rmSync(fresh, { recursive: true, force: true });
  });

  it("refuses every command under `required` when prlimit cannot be found", async () => {
    const bin = join(base, "bin");
    mkdirSync(bin);
    for (const name of ["bwrap", "bash", "sh"]) {
      symlinkSync(hostExecutable(name) ?? "", join(bin, name));
    }
    const execution = await createShellExecution({
      ...options,
      env: { ...process.env, PATH: bin },
    });
    expect(execution.environment.status()).toEqual({
      kind: "unavailable",
      reason: UNAVAILABLE.prlimitMissing,
    });
  });
});
