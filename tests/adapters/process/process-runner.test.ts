import { writeFileSync } from "node:fs";
import { chmod, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isGone, killLeftovers } from "../../support/process-state.js";
import { CommandStartError } from "../../../src/core/ports/command-runner.js";
import {
  BoundedOutput,
  completeUtf8Length,
  utf8BoundaryAtOrBefore,
} from "../../../src/adapters/process/bounded-output.js";
import { killTreeStrategyFor } from "../../../src/adapters/process/kill-tree.js";
import { runProcess, type ProcessSpec } from "../../../src/adapters/process/process-runner.js";

const BASH = "/bin/bash";
const posixOnly = process.platform === "win32";

let workspace: string;
const leftoverPids: number[] = [];

beforeEach(async () => {
  workspace = await mkdtemp(join(await realpath(tmpdir()), "process-runner-"));
});

afterEach(async () => {
  killLeftovers(leftoverPids);
  await rm(workspace, { recursive: true, force: true });
});

function bash(script: string, overrides: Partial<ProcessSpec> = {}): ProcessSpec {
  return {
    executable: BASH,
    args: ["--noprofile", "--norc", "-c", script],
    cwd: workspace,
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: 20_000,
    maxOutputBytes: 1024,
    killTree: { kind: "process-group" },
    ...overrides,
  };
}

describe.skipIf(posixOnly)(
  "runProcess against real POSIX processes (POSIX only: /bin/bash, process groups, signals)",
  () => {
    it("passes output to onOutput as it arrives, before the command ends, and still captures it", async () => {
      // The command goes on only once display has its first line: a display that got nothing
      // until the end would leave it waiting (and the run would time out), on any machine.
      const seen: string[] = [];
      const result = await runProcess(
        bash("echo first; until [ -e shown ]; do sleep 0.01; done; echo second >&2", {
          onOutput: (text) => {
            if (seen.push(text) === 1) writeFileSync(join(workspace, "shown"), "");
          },
        }),
      );
      // The capture marks stderr lines; the display hook gets the bytes as the program wrote them.
      expect(result.output).toBe("first\n[stderr] second\n");
      expect(seen).toEqual(["first\n", "second\n"]);
    });

    it("ignores an onOutput that throws", async () => {
      const result = await runProcess(
        bash("echo hi", {
          onOutput: () => {
            throw new Error("display broke");
          },
        }),
      );
      expect(result).toEqual({ exitCode: 0, output: "hi\n", truncated: false, timedOut: false });
    });

    it("captures stdout and the exit code", async () => {
      await expect(runProcess(bash("echo hello; exit 3"))).resolves.toEqual({
        exitCode: 3,
        output: "hello\n",
        truncated: false,
        timedOut: false,
      });
    });

    it("captures stderr interleaved with stdout in order of arrival", async () => {
      const result = await runProcess(
        bash("echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three"),
      );
      expect(result).toEqual({
        exitCode: 0,
        output: "one\n[stderr] two\nthree\n",
        truncated: false,
        timedOut: false,
      });
    });

    it("passes exactly the given environment and cwd", async () => {
      const result = await runProcess(
        bash('printf "%s|%s|%s" "$PWD" "$ONLY_THIS" "${HOME-unset}"', {
          env: { PATH: "/usr/bin:/bin", ONLY_THIS: "yes" },
        }),
      );
      expect(result.output).toBe(`${workspace}|yes|unset`);
    });

    it("reports a command killed by its own signal as 128 + n, not as our kill", async () => {
      const result = await runProcess(bash("kill -9 $$"));
      expect(result).toEqual({ exitCode: 137, output: "", truncated: false, timedOut: false });
    });

    it("does not feed stdin: a command reading it sees end of input at once", async () => {
      const result = await runProcess(bash("cat; echo after"));
      expect(result.output).toBe("after\n");
    });

    it("kills the whole process group on timeout, grandchildren included", async () => {
      const pidFile = join(workspace, "grandchild.pid");
      const script = `bash -c 'sleep 300 & echo $! > ${pidFile}; wait' & wait`;
      const result = await runProcess(bash(script, { timeoutMs: 1_500 }));
      expect(result).toEqual({ exitCode: null, output: "", truncated: false, timedOut: true });
      const grandchild = Number((await readFile(pidFile, "utf8")).trim());
      expect(grandchild).toBeGreaterThan(0);
      leftoverPids.push(grandchild);
      await waitUntil(() => isGone(grandchild));
      expect(isGone(grandchild)).toBe(true);
    });

    it("kills the tree on abort and reports it as neither exit nor timeout", async () => {
      // Aborted once the command has printed: on a loaded machine a fixed 500 ms could come first.
      const controller = new AbortController();
      const running = runProcess(
        bash("echo begun; sleep 300", {
          signal: controller.signal,
          onOutput: () => {
            controller.abort();
          },
        }),
      );
      await expect(running).resolves.toEqual({
        exitCode: null,
        output: "begun\n",
        truncated: false,
        timedOut: false,
      });
    });

    it("does not start anything when the signal is already aborted", async () => {
      const marker = join(workspace, "ran");
      const controller = new AbortController();
      controller.abort();
      const result = await runProcess(bash(`touch ${marker}`, { signal: controller.signal }));
      expect(result).toEqual({ exitCode: null, output: "", truncated: false, timedOut: false });
      await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
    });

    it("ends when the root exits, not when a background child closes the pipes", async () => {
      const result = await runProcess(bash("sleep 40 & echo $!; echo started"));
      const [pidLine, rest] = result.output.split("\n", 2);
      leftoverPids.push(Number(pidLine));
      expect(rest).toBe("started");
      expect(result.exitCode).toBe(0);
      expect(result.timedOut).toBe(false);
    }, 10_000);

    it("keeps the head and the tail of a long output and counts what it left out", async () => {
      // 100 lines, 292 bytes; a 40-byte cap keeps 18 bytes at each end, on line boundaries.
      const result = await runProcess(bash("seq 1 100", { maxOutputBytes: 40 }));
      expect(result).toEqual({
        exitCode: 0,
        output: "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
        truncated: true,
        timedOut: false,
        omitted: { bytes: 258, lines: 86, tail: "96\n97\n98\n99\n100\n", totalBytes: 292 },
      });
    });

    it("keeps the tail exact when the output overflows over many reads", async () => {
      // 1,988,895 bytes; the tail keeps at most 450, starting on a line: the last 64 lines.
      const result = await runProcess(bash("seq 1 300000", { maxOutputBytes: 1000 }));
      const lastLines = Array.from({ length: 64 }, (_, index) => `${299_937 + index}\n`).join("");
      expect(result.omitted).toEqual({
        bytes: 1_988_895 - Buffer.byteLength(result.output) - 448,
        lines: 300_000 - result.output.split("\n").length + 1 - 64,
        tail: lastLines,
        totalBytes: 1_988_895,
      });
    });

    it("marks a stderr line longer than one read once, and keeps it whole", async () => {
      const result = await runProcess(
        bash("head -c 200000 /dev/zero | tr '\\0' a >&2; echo >&2; echo b >&2", {
          maxOutputBytes: 1024 * 1024,
        }),
      );
      expect(result.output).toBe(`[stderr] ${"a".repeat(200_000)}\n[stderr] b\n`);
    });

    it("drops a multi-byte character straddling the head's end whole", async () => {
      // "ab" then € (3 bytes), then 10 z: a 7-byte cap keeps 3 bytes at each end, inside the €.
      const result = await runProcess(
        bash("printf 'ab\\xe2\\x82\\xaczzzzzzzzzz'", { maxOutputBytes: 7 }),
      );
      expect(result).toMatchObject({ output: "ab", truncated: true });
      expect(result.omitted).toMatchObject({ bytes: 10, tail: "zzz", totalBytes: 15 });
    });

    it("keeps a character whole when the head ends right after it", async () => {
      const result = await runProcess(bash("printf 'ab€zzzzzzzzzz'", { maxOutputBytes: 12 }));
      expect(result).toMatchObject({ output: "ab€", truncated: true });
      expect(result.omitted).toMatchObject({ bytes: 5, tail: "zzzzz" });
    });

    it("saves the whole output to the spill file, opened only once the output overflows", async () => {
      const written: Buffer[] = [];
      let opened = 0;
      let closed = 0;
      const spill = {
        open: () => {
          opened += 1;
          return {
            path: ".agent/outputs/c.log",
            write: (bytes: Uint8Array) => written.push(Buffer.from(bytes)),
            close: () => (closed += 1),
          };
        },
      };
      const short = await runProcess({ ...bash("echo short"), spill });
      expect(short.output).toBe("short\n");
      expect(opened).toBe(0);
      const long = await runProcess({
        ...bash("seq 1 100000; echo oops >&2; exit 4"),
        spill,
        maxOutputBytes: 1000,
      });
      expect(opened).toBe(1);
      expect(closed).toBe(1);
      const whole = Buffer.concat(written).toString("utf8");
      expect(whole.split("\n")).toHaveLength(100_002);
      expect(whole.endsWith("99999\n100000\n[stderr] oops\n")).toBe(true);
      expect(long.exitCode).toBe(4);
      expect(long.omitted?.savedTo).toBe(".agent/outputs/c.log");
      expect(long.omitted?.tail.endsWith("100000\n[stderr] oops\n")).toBe(true);
      expect(long.omitted?.totalBytes).toBe(Buffer.byteLength(whole));
    });

    it("replaces secrets with [redacted] in the output and the spill file", async () => {
      const written: Buffer[] = [];
      const spill = {
        open: () => ({
          path: "p",
          write: (bytes: Uint8Array) => written.push(Buffer.from(bytes)),
          close: () => undefined,
        }),
      };
      const secrets = ["sk-secret-value"];
      const short = await runProcess({
        ...bash("printf 'key=sk-secr'; sleep 0.1; printf 'et-value\\n'; echo sk-secret-value >&2"),
        secrets,
      });
      expect(short.output).toBe("key=[redacted]\n[stderr] [redacted]\n");
      const long = await runProcess({
        ...bash("for i in $(seq 1 2000); do echo sk-secret-value; done"),
        secrets,
        spill,
      });
      expect(long.output).not.toContain("sk-secret");
      expect(long.omitted?.tail).not.toContain("sk-secret");
      expect(Buffer.concat(written).toString("utf8")).toBe("[redacted]\n".repeat(2000));
    });

    it("never interleaves the other pipe inside a character split across writes", async () => {
      const script = "printf '\\xe2'; echo err >&2; sleep 0.3; printf '\\x82\\xac'";
      const result = await runProcess(bash(script));
      // Either order is honest; a mangled euro sign (U+FFFD) is not.
      expect(["[stderr] err\n€", "€[stderr] err\n"]).toContain(result.output);
    });

    it("reads 1 GB of output with bounded memory and keeps only the cap", async () => {
      const samples: number[] = [];
      const before = process.memoryUsage.rss();
      const sampler = setInterval(() => samples.push(process.memoryUsage.rss()), 10);
      const result = await runProcess({
        executable: "/usr/bin/head",
        args: ["-c", "1000000000", "/dev/zero"],
        cwd: workspace,
        env: {},
        timeoutMs: 120_000,
        maxOutputBytes: 50 * 1024,
        killTree: { kind: "process-group" },
      });
      clearInterval(sampler);
      samples.push(process.memoryUsage.rss());
      expect(result.exitCode).toBe(0);
      expect(result.truncated).toBe(true);
      expect(result.output).toBe("\0".repeat(23_040));
      expect(result.omitted).toEqual({
        bytes: 1_000_000_000 - 2 * 23_040,
        lines: 0,
        tail: "\0".repeat(23_040),
        totalBytes: 1_000_000_000,
      });
      const growthMb = (Math.max(...samples) - before) / (1024 * 1024);
      expect(growthMb).toBeLessThan(64);
    }, 120_000);

    it("fails to start with a typed error when the executable is missing", async () => {
      const missing = join(workspace, "no-such-program");
      const running = runProcess(bash("", { executable: missing, args: [] }));
      await expect(running).rejects.toThrow(CommandStartError);
      await expect(running).rejects.toThrow(`Could not start ${missing}: ENOENT (no such file)`);
    });

    it("fails to start with a typed error when the file is not executable", async () => {
      const notExecutable = join(workspace, "plain.sh");
      await writeFile(notExecutable, "echo hi\n");
      await chmod(notExecutable, 0o644);
      const running = runProcess(bash("", { executable: notExecutable, args: [] }));
      await expect(running).rejects.toThrow(
        new CommandStartError(`Could not start ${notExecutable}: EACCES (permission denied)`),
      );
    });

    it("returns a status pipe's bytes apart from the output, with how the root ended", async () => {
      const statusPipe = { fd: 3, maxBytes: 1024 } as const;
      const script = "echo out; echo err >&2; printf '{\"exit-code\": 7}\\n' >&3; exit 2";
      expect(await runProcess({ ...bash(script), statusPipe })).toEqual({
        exitCode: 2,
        output: "out\n[stderr] err\n",
        truncated: false,
        timedOut: false,
        status: '{"exit-code": 7}\n',
        exitSignal: null,
      });
      expect(await runProcess({ ...bash("printf abcdef >&3; kill -9 $$"), statusPipe })).toEqual({
        exitCode: 137,
        output: "",
        truncated: false,
        timedOut: false,
        status: "abcdef",
        exitSignal: "SIGKILL",
      });
    });

    it("keeps only maxBytes of the status pipe and leaves the output cap alone", async () => {
      const statusPipe = { fd: 3, maxBytes: 4 } as const;
      const result = await runProcess({ ...bash("printf 0123456789 >&3; printf ok"), statusPipe });
      expect(result).toEqual({
        exitCode: 0,
        output: "ok",
        truncated: false,
        timedOut: false,
        status: "0123",
        exitSignal: null,
      });
    });

    it("hands an input pipe's bytes to the child on fd 4, then end-of-file", async () => {
      const inputPipe = { fd: 4, data: new TextEncoder().encode("filter\0bytes") } as const;
      const script = "od -An -c <&4 | tr -s ' '; printf 'status' >&3";
      const statusPipe = { fd: 3, maxBytes: 1024 } as const;
      expect(await runProcess({ ...bash(script), inputPipe, statusPipe })).toEqual({
        exitCode: 0,
        output: " f i l t e r \\0 b y t e s\n",
        truncated: false,
        timedOut: false,
        status: "status",
        exitSignal: null,
      });
      // Without a status pipe fd 3 is closed, and the input still arrives on fd 4.
      const alone = await runProcess({
        ...bash("cat <&4; [ -e /dev/fd/3 ] || echo no3"),
        inputPipe,
      });
      expect(alone.output).toBe("filter\0bytesno3\n");
    });

    it("does not fail when the child exits without reading its input pipe", async () => {
      const inputPipe = { fd: 4, data: new Uint8Array(60 * 1024) } as const;
      expect(await runProcess({ ...bash("exec 4<&-; exit 5"), inputPipe })).toEqual({
        exitCode: 5,
        output: "",
        truncated: false,
        timedOut: false,
      });
    });

    it("names the program as displayName says when it cannot start", async () => {
      const missing = join(workspace, "no-such-wrapper");
      const spec = bash("", {
        executable: missing,
        args: [],
        displayName: `the wrapper ${missing}`,
      });
      await expect(runProcess(spec)).rejects.toThrow(
        new CommandStartError(`Could not start the wrapper ${missing}: ENOENT (no such file)`),
      );
    });

    it("fails to start with a typed error when the working directory is missing", async () => {
      const cwd = join(workspace, "gone");
      await expect(runProcess(bash("true", { cwd }))).rejects.toThrow(
        new CommandStartError(`Working directory does not exist: ${cwd}`),
      );
    });
  },
);

describe("runProcess limits", () => {
  it("rejects a non-positive timeout before starting anything", async () => {
    await expect(runProcess(bash("true", { timeoutMs: 0 }))).rejects.toThrow(
      "timeoutMs must be a positive number, got 0",
    );
  });

  it("rejects a fractional output cap", async () => {
    await expect(runProcess(bash("true", { maxOutputBytes: 1.5 }))).rejects.toThrow(
      "maxOutputBytes must be a non-negative integer, got 1.5",
    );
  });

  it("rejects a negative status pipe cap", async () => {
    const spec = { ...bash("true"), statusPipe: { fd: 3, maxBytes: -1 } } as const;
    await expect(runProcess(spec)).rejects.toThrow(
      "statusPipe.maxBytes must be a non-negative integer, got -1",
    );
  });
});

describe("runProcess input pipe limit", () => {
  it("rejects input larger than a pipe buffer before starting anything", async () => {
    const spec = { ...bash("true"), inputPipe: { fd: 4, data: new Uint8Array(65_537) } } as const;
    await expect(runProcess(spec)).rejects.toThrow(
      "inputPipe.data must be at most 65536 bytes, got 65537",
    );
  });
});

describe("UTF-8 helpers", () => {
  const euro = Buffer.from("€"); // e2 82 ac

  it.each([
    ["ascii only", Buffer.from("abc"), 3],
    ["complete euro", Buffer.concat([Buffer.from("a"), euro]), 4],
    ["euro missing its last byte", Buffer.concat([Buffer.from("a"), euro.subarray(0, 2)]), 1],
    ["euro missing two bytes", Buffer.concat([Buffer.from("a"), euro.subarray(0, 1)]), 1],
    ["4-byte emoji cut after 3", Buffer.from("x😀").subarray(0, 4), 1],
    ["stray continuation bytes pass through", Buffer.from([0x80, 0x80]), 2],
    ["empty", Buffer.alloc(0), 0],
  ])("completeUtf8Length: %s", (_name, bytes, expected) => {
    expect(completeUtf8Length(bytes)).toBe(expected);
  });

  it.each([
    [0, 0],
    [1, 1],
    [2, 1],
    [3, 1],
    [4, 4],
    [9, 5],
  ])("utf8BoundaryAtOrBefore('a€b', %i) = %i", (limit, expected) => {
    expect(utf8BoundaryAtOrBefore(Buffer.from("a€b"), limit)).toBe(expected);
  });

  it("BoundedOutput stops keeping anything once one byte was dropped", () => {
    const output = new BoundedOutput(3);
    output.append(Buffer.from("ab"));
    output.append(Buffer.from("€"));
    output.append(Buffer.from("c"));
    expect(output.result()).toEqual({ output: "ab", truncated: true });
  });

  it("BoundedOutput with a zero cap keeps nothing but says it dropped output", () => {
    const output = new BoundedOutput(0);
    output.append(Buffer.from("x"));
    expect(output.result()).toEqual({ output: "", truncated: true });
  });
});

describe("killTreeStrategyFor", () => {
  it.each([
    ["linux", {}, { kind: "process-group" }],
    ["darwin", {}, { kind: "process-group" }],
    [
      "win32",
      { SystemRoot: "D:\\Win" },
      { kind: "taskkill", taskkillPath: "D:\\Win\\System32\\taskkill.exe" },
    ],
    [
      "win32",
      { SYSTEMROOT: "C:\\WINDOWS\\" },
      { kind: "taskkill", taskkillPath: "C:\\WINDOWS\\System32\\taskkill.exe" },
    ],
    [
      "win32",
      { SystemRoot: "relative\\dir" },
      { kind: "taskkill", taskkillPath: "C:\\Windows\\System32\\taskkill.exe" },
    ],
    ["win32", {}, { kind: "taskkill", taskkillPath: "C:\\Windows\\System32\\taskkill.exe" }],
  ] as const)("%s with %j", (platform, env, expected) => {
    expect(killTreeStrategyFor(platform, env)).toEqual(expected);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
