import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FileProbe } from "../../../src/adapters/shell/executable-resolution.js";
import { PosixShellRunner } from "../../../src/adapters/shell/posix-shell.js";
import { PowerShellRunner } from "../../../src/adapters/shell/powershell.js";
import { SandboxSetupError } from "../../../src/adapters/sandbox/sandbox-errors.js";
import { BubblewrapRunner } from "../../../src/adapters/sandbox/bubblewrap.js";
import {
  ABANDONED_REASON,
  createShellExecution,
  PENDING_REASON,
  startShellExecution,
  UNAVAILABLE,
  type ShellExecutionOptions,
} from "../../../src/adapters/execution/shell-execution.js";
import type { SandboxProbeResult } from "../../../src/adapters/sandbox/index.js";
import {
  selectCommandRunner,
  ShellUnavailableError,
} from "../../../src/adapters/shell/shell-selection.js";
import { UnavailableRunner } from "../../../src/adapters/execution/unavailable-runner.js";
import { buildAgent } from "../../../src/bootstrap/build-agent.js";
import type { CommandRunner } from "../../../src/core/ports/command-runner.js";
import type { ModelClient } from "../../../src/core/ports/model.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { P03 } from "../../../src/core/profiles.js";
import { RecordingApprover, RecordingAuditSink } from "../../support/permission-fakes.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";
import { hostExecutable } from "../../support/host-executables.js";
import { runError } from "../../support/run-error.js";
import { settlesSoon } from "../../support/settles-soon.js";

const HAS_BWRAP =
  process.platform === "linux" &&
  hostExecutable("bwrap") !== undefined &&
  hostExecutable("bash") !== undefined;
const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };
const SECRET = "sk-test-never-inside";
// Windows cannot run the host's bash and sh under a Linux-style PATH, nor a #!/bin/sh fake bwrap.
const ON_WINDOWS = process.platform === "win32";
const POSIX_HOST = "(POSIX only: real bash/sh and shell-script fakes of bwrap)";

/**
 * A PATH holding only bash and sh (links to the real ones): bwrap is not on it. (Dropping the
 * directory bwrap lives in is not enough where /bin links to /usr/bin.)
 */
async function pathWithoutBwrap(base: string): Promise<string> {
  const bin = join(base, "shells-only");
  await mkdir(bin, { recursive: true });
  for (const name of ["bash", "sh"]) {
    const real = hostExecutable(name);
    if (real !== undefined) await symlink(real, join(bin, name));
  }
  return bin;
}

/** Answers only for the listed files, so shell lookup for another OS needs no such OS. */
function fakeFiles(files: readonly string[]): FileProbe {
  return {
    isExecutableFile: (candidate) => files.includes(candidate),
    realpath: (candidate) => candidate,
  };
}

describe("createShellExecution", () => {
  let base: string;
  let ws: string;
  let options: ShellExecutionOptions;

  beforeEach(async () => {
    base = await mkdtemp(join(await realpath(tmpdir()), "shell-execution-"));
    ws = join(base, "ws");
    await mkdir(ws);
    options = {
      sandbox: "auto",
      network: false,
      shell: "auto",
      workspace: ws,
      env: { ...process.env, OPENAI_API_KEY: SECRET },
      platform: "linux",
      passEnv: [],
    };
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  /** A bwrap on PATH that prints `stderr` and exits 1 without running anything. */
  async function failingBwrap(stderr: string): Promise<string> {
    const bin = join(base, "fake-bin");
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, "bwrap"), `#!/bin/sh\necho '${stderr}' >&2\nexit 1\n`);
    await chmod(join(bin, "bwrap"), 0o755);
    return `${bin}:${await pathWithoutBwrap(base)}`;
  }

  describe.skipIf(ON_WINDOWS)(`off ${POSIX_HOST}`, () => {
    it("runs on the host, labelled, with the API key still out of reach", async () => {
      const execution = await createShellExecution({ ...options, sandbox: "off", shell: "posix" });
      expect(execution.environment.status()).toEqual({
        kind: "host",
        label: "sandbox: none — runs on the host (sandbox off)",
      });
      expect(execution.fallbackReason).toBeUndefined();
      expect(execution.runner).toBeInstanceOf(PosixShellRunner);
      expect(await execution.runner.run('echo "key=${OPENAI_API_KEY-unset}"', ws, LIMITS)).toEqual({
        exitCode: 0,
        output: "key=unset\n",
        truncated: false,
        timedOut: false,
      });
    });
  });

  describe.skipIf(ON_WINDOWS)(`without bwrap on the search path ${POSIX_HOST}`, () => {
    it("auto falls back to the host and says why", async () => {
      const execution = await createShellExecution({
        ...options,
        shell: "posix",
        env: { ...options.env, PATH: await pathWithoutBwrap(base) },
      });
      expect(execution.environment.status()).toEqual({
        kind: "host",
        label: "sandbox: none — runs on the host (bubblewrap not installed)",
      });
      expect(execution.fallbackReason).toBe(UNAVAILABLE.bwrapMissing);
      expect(execution.runner).toBeInstanceOf(PosixShellRunner);
    });

    it("required is unavailable, naming the cause and the fix, and its runner refuses", async () => {
      const execution = await createShellExecution({
        ...options,
        sandbox: "required",
        env: { ...options.env, PATH: await pathWithoutBwrap(base) },
      });
      const reason =
        "bubblewrap (bwrap) is not installed or not on PATH: install it (apt-get install bubblewrap), or run with --sandbox off";
      expect(execution.environment.status()).toEqual({ kind: "unavailable", reason });
      expect(execution.runner).toBeInstanceOf(UnavailableRunner);
      const error = await runError(execution.runner.run(`touch marker`, ws, LIMITS));
      expect(error).toEqual(new SandboxSetupError(reason));
      expect(existsSync(join(ws, "marker"))).toBe(false);
    });
  });

  describe.skipIf(ON_WINDOWS)(`a bwrap that cannot create namespaces ${POSIX_HOST}`, () => {
    const said = "bwrap: setting up uid map: Permission denied";
    const reason = `The sandbox cannot start: user namespaces are disabled in this container or kernel (The sandbox (bwrap) could not start the command (exit code 1): ${said}); allow them (e.g. sysctl kernel.unprivileged_userns_clone=1, or a container seccomp/AppArmor profile that permits unshare), or run with --sandbox off`;

    it("makes required unavailable with bwrap's own words", async () => {
      const PATH = await failingBwrap(said);
      const execution = await createShellExecution({
        ...options,
        sandbox: "required",
        env: { ...options.env, PATH },
      });
      expect(execution.environment.status()).toEqual({ kind: "unavailable", reason });
    });

    it("makes auto fall back to the host", async () => {
      const PATH = await failingBwrap(said);
      const execution = await createShellExecution({
        ...options,
        shell: "posix",
        env: { ...options.env, PATH },
      });
      expect(execution.environment.status()).toEqual({
        kind: "host",
        label: "sandbox: none — runs on the host (sandbox probe failed)",
      });
      expect(execution.fallbackReason).toBe(reason);
    });
  });

  it.skipIf(ON_WINDOWS)(
    `catches a bwrap that isolates nothing, by what reached the host ${POSIX_HOST}`,
    async () => {
      const bin = join(base, "fake-bin");
      await mkdir(bin);
      // Runs the command in place and reports its exit code the way bwrap does.
      await writeFile(
        join(bin, "bwrap"),
        [
          "#!/bin/sh",
          "dir=/nonexistent",
          'while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do',
          '  if [ "$1" = "--chdir" ]; then dir=$2; fi',
          "  shift",
          "done",
          "shift",
          'cd "$dir" || exit 1',
          '"$@"',
          "code=$?",
          `printf '{ "exit-code": %d }\\n' "$code" >&3`,
          'exit "$code"',
          "",
        ].join("\n"),
      );
      await chmod(join(bin, "bwrap"), 0o755);
      const execution = await createShellExecution({
        ...options,
        sandbox: "required",
        env: { ...options.env, PATH: `${bin}:${await pathWithoutBwrap(base)}` },
      });
      expect(execution.environment.status()).toEqual({
        kind: "unavailable",
        reason:
          "The sandbox probe failed (a write outside the workspace reached the host); fix bubblewrap on this machine, or run with --sandbox off",
      });
    },
  );

  it.each([
    ["win32", "Windows"],
    ["darwin", "macOS"],
  ] as const)(
    "on %s, required is unavailable and auto runs on the host",
    async (platform, name) => {
      const required = await createShellExecution({ ...options, platform, sandbox: "required" });
      expect(required.environment.status()).toEqual({
        kind: "unavailable",
        reason: `No OS sandbox on ${name}: the sandbox uses bubblewrap, which runs on Linux only; run with --sandbox off (or auto) to run commands on the host`,
      });
      const pwsh =
        platform === "win32" ? "C:\\Program Files\\PowerShell\\7\\pwsh.exe" : "/usr/bin/pwsh";
      const auto = await createShellExecution({
        ...options,
        platform,
        env: { PATH: platform === "win32" ? "C:\\Program Files\\PowerShell\\7" : "/usr/bin" },
        probe: fakeFiles([pwsh, "/usr/bin/bash"]),
      });
      expect(auto.environment.status()).toEqual({
        kind: "host",
        label: `sandbox: none — runs on the host (no sandbox on ${name})`,
      });
      // --shell auto: PowerShell on Windows, bash on macOS even where pwsh is installed.
      expect(auto.runner).toBeInstanceOf(
        platform === "win32" ? PowerShellRunner : PosixShellRunner,
      );
    },
  );

  it("puts PowerShell in the sandbox when asked for it: required and auto both isolate it", async () => {
    const pwsh = "/opt/microsoft/powershell/7/pwsh";
    for (const sandbox of ["required", "auto"] as const) {
      const execution = await createShellExecution({
        ...options,
        sandbox,
        shell: "powershell",
        env: { PATH: "/opt/microsoft/powershell/7:/usr/bin" },
        probe: fakeFiles([pwsh, "/usr/bin/bwrap", "/usr/bin/bash"]),
        probeSandbox: () => Promise.resolve({ ok: true }),
      });
      expect(execution.environment.status()).toEqual({
        kind: "isolated",
        label: `sandbox: bwrap (network off, writable: ${ws})`,
        network: "disabled",
      });
      const runner = execution.runner;
      if (!(runner instanceof BubblewrapRunner)) throw new Error("expected the sandbox runner");
      expect(runner.shellName).toBe("PowerShell 7");
      const args = runner.argsFor("Write-Output hi", ws);
      expect(args.slice(args.indexOf("--") + 1, args.indexOf("--") + 3)).toEqual([pwsh, "-NoLogo"]);
    }
  });

  it("needs bash or sh for the probe even for PowerShell: without, the sandbox is unavailable", async () => {
    const execution = await createShellExecution({
      ...options,
      sandbox: "required",
      shell: "powershell",
      env: { PATH: "/usr/bin" },
      probe: fakeFiles(["/usr/bin/bwrap", "/usr/bin/pwsh"]),
      probeSandbox: () => Promise.resolve({ ok: true }),
    });
    expect(execution.environment.status()).toEqual({
      kind: "unavailable",
      reason:
        "The sandbox probe needs bash or sh on PATH, even for PowerShell: install one, or run with --sandbox off",
    });
  });

  it("has no sandbox on an architecture without a seccomp filter: required denies, auto runs on the host", async () => {
    const reason =
      "The sandbox cannot run on riscv64: it has a seccomp filter only for x64 and arm64, and without one a command could leave a setuid file behind; run with --sandbox off to run commands on the host";
    const onThisMachine = {
      ...options,
      arch: "riscv64",
      shell: "posix",
      env: { PATH: "/usr/bin" },
      probe: fakeFiles(["/usr/bin/bwrap", "/usr/bin/bash"]),
      probeSandbox: () => Promise.reject(new Error("the probe must not run")),
    } as const;
    const required = await createShellExecution({ ...onThisMachine, sandbox: "required" });
    expect(required.environment.status()).toEqual({ kind: "unavailable", reason });
    expect(required.runner).toBeInstanceOf(UnavailableRunner);
    const auto = await createShellExecution(onThisMachine);
    expect(auto.environment.status()).toEqual({
      kind: "host",
      label: "sandbox: none — runs on the host (no sandbox filter for riscv64)",
    });
    expect(auto.fallbackReason).toBe(reason);
    expect(auto.runner).toBeInstanceOf(PosixShellRunner);
  });

  it("needs bash or sh for the sandbox: with bwrap alone it is a configuration error", async () => {
    const error = await runError(
      createShellExecution({
        ...options,
        platform: "linux",
        sandbox: "required",
        shell: "posix",
        env: { PATH: "/usr/bin" },
        probe: fakeFiles(["/usr/bin/bwrap"]),
      }),
    );
    expect(error).toEqual(
      new ShellUnavailableError(
        "A POSIX shell was requested (--shell posix) but neither bash nor sh was found on PATH",
      ),
    );
    expect(error).toBeInstanceOf(ShellUnavailableError);
  });

  describe.skipIf(!HAS_BWRAP)(
    HAS_BWRAP
      ? "with real bubblewrap"
      : "with real bubblewrap (skipped: needs Linux with bwrap and bash on PATH; CI installs bubblewrap)",
    () => {
      it.each([
        [false, "network off"],
        [true, "network on"],
      ])("auto and required both isolate (network %s)", async (network, words) => {
        for (const sandbox of ["auto", "required"] as const) {
          const execution = await createShellExecution({ ...options, sandbox, network });
          expect(execution.environment.status()).toEqual({
            kind: "isolated",
            label: `sandbox: bwrap (${words}, writable: ${ws})`,
            network: network ? "enabled" : "disabled",
          });
          expect(execution.runner.shellName).toBe("bash");
          const result = await execution.runner.run(
            'printf x > inside; touch /etc/agent-x 2>/dev/null; echo "etc=$? key=${OPENAI_API_KEY-unset}"',
            ws,
            LIMITS,
          );
          expect(result).toEqual({
            exitCode: 0,
            output: "etc=1 key=unset\n",
            truncated: false,
            timedOut: false,
          });
          expect(existsSync(join(ws, "inside"))).toBe(true);
        }
      });

      it("refuses a workspace that is the home directory, before any probe", async () => {
        let probes = 0;
        const execution = await createShellExecution({
          ...options,
          sandbox: "required",
          env: { ...options.env, HOME: ws },
          probeSandbox: () => {
            probes += 1;
            return Promise.resolve({ ok: true });
          },
        });
        expect(execution.environment.status()).toEqual({
          kind: "unavailable",
          reason: `The sandbox refuses to make ${ws} writable: it is the home directory; run the agent in a project directory`,
        });
        expect(probes).toBe(0);
      });
    },
  );
});

describe.skipIf(ON_WINDOWS)(`an agent whose sandbox is required but unusable ${POSIX_HOST}`, () => {
  let base: string;
  let ws: string;

  beforeEach(async () => {
    base = await mkdtemp(join(await realpath(tmpdir()), "sandbox-agent-"));
    ws = join(base, "ws");
    await mkdir(ws);
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("runs nothing, never asks, and audits exactly one sandbox denial", async () => {
    const execution = await createShellExecution({
      sandbox: "required",
      network: false,
      shell: "auto",
      workspace: ws,
      env: { ...process.env, PATH: await pathWithoutBwrap(base) },
      platform: "linux",
      passEnv: [],
    });
    // A real host shell as the runner: only the policy stands between the call and the marker.
    const hostRunner: CommandRunner = selectCommandRunner({
      choice: "posix",
      workspace: ws,
      env: process.env,
      platform: process.platform,
      passEnv: [],
    });
    const approver = new RecordingApprover(() =>
      PermissionDecision.allow("the person said yes", "approval"),
    );
    const audit = new RecordingAuditSink();
    const model = new ScriptedModelClient([
      toolCallReply([{ id: "call_1", name: "shell", arguments: { command: "touch marker" } }]),
      textReply("done"),
    ]);
    const agent = buildAgent(P03, {
      model,
      workspace: ws,
      commandRunner: hostRunner,
      executionEnvironment: execution.environment,
      approvalProvider: approver,
      auditSink: audit,
    });

    const result = await agent.run("create the marker");

    const reason = UNAVAILABLE.bwrapMissing;
    expect(existsSync(join(ws, "marker"))).toBe(false);
    expect(approver.requests).toEqual([]);
    expect(audit.lines()).toEqual([`shell: deny (sandbox) - ${reason}`]);
    expect(audit.entries[0]?.request.executionEnvironment).toBe(`sandbox: unavailable — ${reason}`);
    expect(result.history.filter((message) => message.role === "tool")).toEqual([
      { role: "tool", toolCallId: "call_1", content: `Error [permission_denied]: ${reason}` },
    ]);
    expect(result.finalText).toBe("done");
  });
});

/** A probe the test finishes by hand, counting how often it was started. */
function manualProbe(): {
  readonly probe: () => Promise<SandboxProbeResult>;
  readonly finish: (result: SandboxProbeResult | Error) => void;
  readonly started: () => number;
} {
  let started = 0;
  let finish: (result: SandboxProbeResult | Error) => void = () => undefined;
  const done = new Promise<SandboxProbeResult>((resolve, reject) => {
    finish = (result) => {
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
  });
  return {
    probe: () => {
      started += 1;
      return done;
    },
    finish: (result) => {
      finish(result);
    },
    started: () => started,
  };
}

describe.skipIf(ON_WINDOWS)(
  `startShellExecution: the probe off the start-up path ${POSIX_HOST}`,
  () => {
    let base: string;
    let ws: string;
    let options: ShellExecutionOptions;
    const PENDING = { kind: "unavailable", reason: PENDING_REASON };

    beforeEach(async () => {
      base = await mkdtemp(join(await realpath(tmpdir()), "start-shell-"));
      ws = join(base, "ws");
      await mkdir(ws);
      options = {
        sandbox: "auto",
        network: false,
        shell: "auto",
        workspace: ws,
        env: { PATH: "/usr/bin", HOME: base },
        platform: "linux",
        passEnv: [],
        probe: fakeFiles(["/usr/bin/bwrap", "/usr/bin/bash"]),
      };
    });

    afterEach(async () => {
      await rm(base, { recursive: true, force: true });
    });

    it("auto, bash either way: returns before the probe ends; nothing may run until it does", async () => {
      const probe = manualProbe();
      const started = await startShellExecution({ ...options, probeSandbox: probe.probe });

      expect(probe.started()).toBe(1);
      expect(started.runner.shellName).toBe("bash");
      expect(started.environment.status()).toEqual(PENDING);
      const run = started.runner.run("true", ws, LIMITS);
      expect(await settlesSoon(started.ready)).toBe(false);
      expect(await settlesSoon(run)).toBe(false);

      probe.finish({ ok: true });
      const decided = await started.ready;
      expect(decided.environment.status()).toEqual({
        kind: "isolated",
        label: `sandbox: bwrap (network off, writable: ${ws})`,
        network: "disabled",
      });
      expect(started.environment.status()).toEqual(decided.environment.status());
      expect(decided.fallbackReason).toBeUndefined();
    });

    it("reports the bwrap it planned with, the one the probe runs (the verdict cache's fingerprint)", async () => {
      const asked: string[] = [];
      const started = await startShellExecution({
        ...options,
        probeSandbox: (probeOptions) => {
          asked.push(probeOptions.bwrapPath);
          return Promise.resolve({ ok: true });
        },
      });
      await started.ready;
      expect(started.bwrapPath).toBe("/usr/bin/bwrap");
      expect(asked).toEqual(["/usr/bin/bwrap"]);
      const required = await startShellExecution({
        ...options,
        sandbox: "required",
        probeSandbox: () => Promise.resolve({ ok: true }),
      });
      expect(required.bwrapPath).toBe("/usr/bin/bwrap");
      const without = await startShellExecution({
        ...options,
        probe: fakeFiles(["/usr/bin/bash"]),
      });
      expect(without.bwrapPath).toBeUndefined();
    });

    it("probeOnDemand: the probe starts at startProbe(), once, and nothing runs before it decides", async () => {
      const probe = manualProbe();
      const started = await startShellExecution({
        ...options,
        probeSandbox: probe.probe,
        probeOnDemand: true,
      });

      expect(probe.started()).toBe(0);
      expect(started.runner.shellName).toBe("bash");
      expect(started.environment.status()).toEqual(PENDING);
      expect(await settlesSoon(started.ready)).toBe(false);
      expect(probe.started()).toBe(0);

      started.startProbe();
      started.startProbe();
      expect(probe.started()).toBe(1);
      expect(started.environment.status()).toEqual(PENDING);
      probe.finish({ ok: true });
      expect((await started.ready).environment.status()).toEqual({
        kind: "isolated",
        label: `sandbox: bwrap (network off, writable: ${ws})`,
        network: "disabled",
      });
      expect(probe.started()).toBe(1);
    });

    it("probeOnDemand: a command starts the probe itself and waits for its decision", async () => {
      const probe = manualProbe();
      const started = await startShellExecution({
        ...options,
        probeSandbox: probe.probe,
        probeOnDemand: true,
      });

      const run = started.runner.run("true", ws, LIMITS);
      expect(probe.started()).toBe(1);
      expect(await settlesSoon(run)).toBe(false);
      probe.finish({ ok: false, reason: "bwrap: boom" });
      expect((await started.ready).fallbackReason).toBe(UNAVAILABLE.probeFailed("bwrap: boom"));
      expect((await run).exitCode).toBe(0);
    });

    it("an agent's read and its model replies never wait for the probe; its command does, and is decided on the outcome", async () => {
      const probe = manualProbe();
      const started = await startShellExecution({
        ...options,
        probeSandbox: probe.probe,
        probeOnDemand: true,
      });
      await writeFile(join(ws, "notes.txt"), "hello\n");
      const scripted = new ScriptedModelClient([
        toolCallReply([{ id: "call_1", name: "read_file", arguments: { path: "notes.txt" } }]),
        toolCallReply([{ id: "call_2", name: "shell", arguments: { command: "touch marker" } }]),
        textReply("done"),
      ]);
      let sawSecond: () => void = () => undefined;
      const secondRequest = new Promise<void>((resolve) => (sawSecond = resolve));
      const model: ModelClient = {
        complete: (request) => {
          if (scripted.requests.length === 1) sawSecond();
          return scripted.complete(request);
        },
      };
      const approver = new RecordingApprover(() =>
        PermissionDecision.allow("the person said yes", "approval"),
      );
      const audit = new RecordingAuditSink();
      const agent = buildAgent(P03, {
        model,
        workspace: ws,
        commandRunner: started.runner,
        executionEnvironment: started.environment,
        approvalProvider: approver,
        auditSink: audit,
      });

      const running = agent.run("read, then make the marker");
      // The read ran and the next request left with the probe not even started.
      await secondRequest;
      expect(probe.started()).toBe(0);
      expect(scripted.requests[1]?.messages.at(-1)).toMatchObject({
        role: "tool",
        toolCallId: "call_1",
      });
      // The command starts the probe and waits for it: nothing asked, nothing run.
      expect(await settlesSoon(running)).toBe(false);
      expect(probe.started()).toBe(1);
      expect(approver.requests).toEqual([]);
      expect(existsSync(join(ws, "marker"))).toBe(false);

      probe.finish({ ok: false, reason: "bwrap: boom" });
      const result = await running;
      const onHost = "sandbox: none — runs on the host (sandbox probe failed)";
      expect(approver.requests.map((request) => request.executionEnvironment)).toEqual([onHost]);
      expect(audit.entries.at(-1)?.request.executionEnvironment).toBe(onHost);
      expect(existsSync(join(ws, "marker"))).toBe(true);
      expect(result.finalText).toBe("done");
    });

    it("abandoned at the run's end: a running probe is stopped, and nothing may run after", async () => {
      const signals: AbortSignal[] = [];
      const probe = manualProbe();
      const started = await startShellExecution({
        ...options,
        probeSandbox: (probeOptions) => {
          if (probeOptions.signal !== undefined) signals.push(probeOptions.signal);
          return probe.probe();
        },
      });
      expect(signals.map((signal) => signal.aborted)).toEqual([false]);

      started.abandonProbe();
      expect(signals.map((signal) => signal.aborted)).toEqual([true]);
      // Whatever the stopped probe then says, it decides nothing: no host fallback, no verdict.
      probe.finish({ ok: false, reason: "killed" });
      const decided = await started.ready;
      expect(decided.abandoned).toBe(true);
      expect(decided.fallbackReason).toBeUndefined();
      expect(started.environment.status()).toEqual({
        kind: "unavailable",
        reason: ABANDONED_REASON,
      });
      expect(await runError(started.runner.run("true", ws, LIMITS))).toEqual(
        new SandboxSetupError(ABANDONED_REASON),
      );
    });

    it("abandoned before it started (probeOnDemand): it never starts", async () => {
      const probe = manualProbe();
      const started = await startShellExecution({
        ...options,
        probeSandbox: probe.probe,
        probeOnDemand: true,
      });
      started.abandonProbe();
      started.startProbe();
      expect((await started.ready).abandoned).toBe(true);
      expect(probe.started()).toBe(0);
    });

    it("auto, probe fails late: falls back to the host, says why, and runs commands there", async () => {
      const probe = manualProbe();
      const started = await startShellExecution({ ...options, probeSandbox: probe.probe });

      probe.finish({ ok: false, reason: "bwrap: boom" });
      const decided = await started.ready;

      expect(started.environment.status()).toEqual({
        kind: "host",
        label: "sandbox: none — runs on the host (sandbox probe failed)",
      });
      expect(decided.fallbackReason).toBe(UNAVAILABLE.probeFailed("bwrap: boom"));
      expect(decided.runner).toBeInstanceOf(PosixShellRunner);
    });

    it("a probe that throws has failed: auto falls back, required is unavailable", async () => {
      const auto = manualProbe();
      const autoStarted = await startShellExecution({ ...options, probeSandbox: auto.probe });
      auto.finish(new Error("spawn EAGAIN"));
      expect((await autoStarted.ready).fallbackReason).toBe(
        UNAVAILABLE.probeFailed("spawn EAGAIN"),
      );

      const required = manualProbe();
      required.finish(new Error("spawn EAGAIN"));
      const requiredStarted = await startShellExecution({
        ...options,
        sandbox: "required",
        probeSandbox: required.probe,
      });
      expect(requiredStarted.environment.status()).toEqual({
        kind: "unavailable",
        reason: UNAVAILABLE.probeFailed("spawn EAGAIN"),
      });
    });

    it("required: waits for the probe, since a failure leaves no shell to tell the model about", async () => {
      const probe = manualProbe();
      const starting = startShellExecution({
        ...options,
        sandbox: "required",
        probeSandbox: probe.probe,
      });
      expect(await settlesSoon(starting)).toBe(false);

      probe.finish({ ok: false, reason: "bwrap: boom" });
      const started = await starting;
      expect(started.runner).toBeInstanceOf(UnavailableRunner);
      expect(started.environment.status()).toEqual({
        kind: "unavailable",
        reason: UNAVAILABLE.probeFailed("bwrap: boom"),
      });
    });

    it("auto with --shell powershell: PowerShell in the sandbox and on the host, so no wait either", async () => {
      const probe = manualProbe();
      const started = await startShellExecution({
        ...options,
        shell: "powershell",
        probe: fakeFiles(["/usr/bin/bwrap", "/usr/bin/bash", "/usr/bin/pwsh"]),
        probeSandbox: probe.probe,
      });
      expect(started.environment.status()).toEqual(PENDING);
      expect(started.runner.shellName).toBe(
        selectCommandRunner({
          ...options,
          choice: "powershell",
          probe: fakeFiles(["/usr/bin/pwsh"]),
        }).shellName,
      );

      probe.finish({ ok: false, reason: "bwrap: boom" });
      expect((await started.ready).runner).toBeInstanceOf(PowerShellRunner);
    });
  },
);
