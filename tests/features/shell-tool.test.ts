import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isGone, killLeftovers } from "../support/process-state.js";
import { PosixShellRunner } from "../../src/adapters/shell/posix-shell.js";
import { CommandStartError, type CommandResult } from "../../src/core/ports/command-runner.js";
import { createShellTool, shellToolResult } from "../../src/features/shell-tool.js";

const posixOnly = process.platform === "win32";

let workspace: string;
const leftoverPids: number[] = [];

beforeEach(async () => {
  workspace = await mkdtemp(join(await realpath(tmpdir()), "shell-tool-"));
});

afterEach(async () => {
  killLeftovers(leftoverPids);
  await rm(workspace, { recursive: true, force: true });
});

function bashRunner(executable = "/bin/bash"): PosixShellRunner {
  return new PosixShellRunner({
    executable,
    kind: "bash",
    environment: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" },
    killTree: { kind: "process-group" },
  });
}

function shellTool(
  options: { timeoutMs?: number; maxOutputBytes?: number; executable?: string } = {},
) {
  return createShellTool({
    runner: bashRunner(options.executable),
    workspace,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
  });
}

async function run(
  command: string,
  options: Parameters<typeof shellTool>[0] = {},
  signal?: AbortSignal,
) {
  const tool = shellTool(options);
  return tool.handler(tool.schema.parse({ command }), {
    callId: "call_1",
    ...(signal === undefined ? {} : { signal }),
  });
}

describe("the tutorial's PowerShell messages", () => {
  it("a PowerShell that cannot start: the seed's words first, ours after", async () => {
    const tool = createShellTool({
      runner: {
        shellName: "PowerShell 7",
        run: () => Promise.reject(new CommandStartError("Could not start pwsh: ENOENT")),
      },
      workspace: "/ws",
    });
    await expect(
      tool.handler(tool.schema.parse({ command: "Get-ChildItem" }), { callId: "c" }),
    ).resolves.toEqual({
      content:
        "Error [shell_start_failed]: PowerShell process could not be started: Could not start pwsh: ENOENT (the command did not run)",
      isError: true,
      errorCode: "shell_start_failed",
    });
  });

  it("Windows PowerShell exits as PowerShell does", () => {
    expect(
      shellToolResult("Windows PowerShell", 1_000, {
        output: "",
        exitCode: 3,
        timedOut: false,
        truncated: false,
      }).content,
    ).toBe("Error [shell_failed]: PowerShell exited with code 3 (the command ran)\n(no output)");
  });
});

describe("the shell tool's definition", () => {
  it("is an execute tool named shell whose description names the shell and the workspace", () => {
    const tool = createShellTool({ runner: bashRunner(), workspace: "/ws" });
    expect(tool.name).toBe("shell");
    expect(tool.effect).toBe("execute");
    expect(tool.description).toBe(
      "Run one command in bash, with the workspace /ws as the working directory. Use bash syntax. " +
        "stdout and stderr come back together, cut after 50 KB; the command and everything it " +
        "started are killed after 120 s. Nothing is read from stdin, so interactive programs " +
        "cannot work. Each stderr line starts with [stderr]; a result without an Error line means " +
        "exit code 0. A longer output keeps its start and its end and says where the whole of it " +
        "was saved: read that file with read_file, in parts.",
    );
  });

  it("accepts only a non-empty command: no timeout, cwd or other field can widen the limits", () => {
    const tool = createShellTool({ runner: bashRunner(), workspace: "/ws" });
    expect(z.toJSONSchema(tool.schema)).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        command: {
          type: "string",
          minLength: 1,
          description: "The command line to run, exactly as typed in the shell.",
        },
      },
      required: ["command"],
      additionalProperties: false,
    });
    expect(tool.schema.safeParse({ command: "ls", timeout: 999_999 }).success).toBe(false);
    expect(tool.schema.safeParse({ command: "" }).success).toBe(false);
  });
});

describe("shellToolResult exact strings", () => {
  const ok = (output: string, extra: Partial<CommandResult> = {}): CommandResult => ({
    exitCode: 0,
    output,
    truncated: false,
    timedOut: false,
    ...extra,
  });

  it.each([
    ["output", ok("hi\n"), { content: "hi\n", isError: false }],
    ["empty output", ok(""), { content: "(no output)", isError: false }],
    [
      "truncated",
      ok("abc", { truncated: true }),
      { content: "abc\n[output truncated]", isError: false },
    ],
    [
      "non-zero exit",
      ok("boom\n", { exitCode: 2 }),
      {
        content: "Error [shell_failed]: PowerShell exited with code 2 (the command ran)\nboom\n",
        isError: true,
        errorCode: "shell_failed",
      },
    ],
    [
      "non-zero exit without output",
      ok("", { exitCode: 1 }),
      {
        content:
          "Error [shell_failed]: PowerShell exited with code 1 (the command ran)\n(no output)",
        isError: true,
        errorCode: "shell_failed",
      },
    ],
    [
      "timeout",
      ok("partial\n", { exitCode: null, timedOut: true }),
      {
        content:
          "Error [shell_timeout]: Command timed out after 1.5 s and was killed with everything it started (the command ran)\npartial\n",
        isError: true,
        errorCode: "shell_timeout",
      },
    ],
    [
      "cancelled",
      ok("", { exitCode: null }),
      {
        content:
          "Error [shell_cancelled]: Command was cancelled before it finished (the command ran)\n(no output)",
        isError: true,
        errorCode: "shell_cancelled",
      },
    ],
    [
      "head and tail, with the saved file",
      ok("1\n2\n", {
        exitCode: 2,
        truncated: true,
        omitted: {
          bytes: 6,
          lines: 3,
          tail: "6\n7\n",
          totalBytes: 14,
          savedTo: ".agent/outputs/c.log",
        },
      }),
      {
        content:
          "Error [shell_failed]: PowerShell exited with code 2 (the command ran)\n1\n2\n" +
          "[output truncated: 6 bytes (3 lines) left out; the whole output (14 bytes) is in .agent/outputs/c.log]\n" +
          "6\n7\n",
        isError: true,
        errorCode: "shell_failed",
      },
    ],
    [
      "head and tail, nothing saved",
      ok("ab", {
        truncated: true,
        omitted: { bytes: 1, lines: 1, tail: "z", totalBytes: 4 },
      }),
      {
        content:
          "ab\n[output truncated: 1 bytes (1 line) left out; the whole output could not be saved]\nz",
        isError: false,
      },
    ],
    [
      "the sandbox's notes, after the output",
      ok("boom", { exitCode: 1, notes: ["a", "b"] }),
      {
        content:
          "Error [shell_failed]: PowerShell exited with code 1 (the command ran)\nboom\n[sandbox] a\n[sandbox] b",
        isError: true,
        errorCode: "shell_failed",
      },
    ],
    [
      "the sandbox's notes, after output that ends its line",
      ok("made\n", { notes: ["warning: /ws/a\nb/AGENTS.md was created"] }),
      { content: "made\n[sandbox] warning: /ws/a\nb/AGENTS.md was created", isError: false },
    ],
    [
      "the sandbox's notes, alone: they stand for the output",
      ok("", { exitCode: 152, notes: ["stopped: CPU time limit 2 s reached"] }),
      {
        content:
          "Error [shell_failed]: PowerShell exited with code 152 (the command ran)\n[sandbox] stopped: CPU time limit 2 s reached",
        isError: true,
        errorCode: "shell_failed",
      },
    ],
    [
      "the sandbox's notes, after the tail of a cut output",
      ok("ab", {
        truncated: true,
        omitted: { bytes: 1, lines: 1, tail: "z", totalBytes: 4 },
        notes: ["a"],
      }),
      {
        content:
          "ab\n[output truncated: 1 bytes (1 line) left out; the whole output could not be saved]\nz\n[sandbox] a",
        isError: false,
      },
    ],
    [
      "the sandbox's notes, as the tail of a cut output that kept none",
      ok("ab\n", {
        truncated: true,
        omitted: { bytes: 1, lines: 1, tail: "", totalBytes: 4 },
        notes: ["a"],
      }),
      {
        content:
          "ab\n[output truncated: 1 bytes (1 line) left out; the whole output could not be saved]\n[sandbox] a",
        isError: false,
      },
    ],
    [
      "the sandbox's notes, before the bare truncation mark",
      ok("ab", { truncated: true, notes: ["a"] }),
      { content: "ab\n[sandbox] a\n[output truncated]", isError: false },
    ],
  ])("%s", (_name, result, expected) => {
    expect(shellToolResult("PowerShell 7", 1_500, result)).toEqual(expected);
  });
});

describe.skipIf(posixOnly)(
  "the shell tool against real bash (POSIX only: /bin/bash, process groups, signals)",
  () => {
    it("returns the output of a successful command", async () => {
      await expect(run("echo hello")).resolves.toEqual({ content: "hello\n", isError: false });
    });

    it("runs in the workspace", async () => {
      await expect(run("pwd")).resolves.toEqual({ content: `${workspace}\n`, isError: false });
    });

    it("says (no output) when there is none", async () => {
      await expect(run("true")).resolves.toEqual({ content: "(no output)", isError: false });
    });

    it("reports a non-zero exit with the shell's name, the code and stderr marked", async () => {
      await expect(run("echo out; echo err >&2; exit 3")).resolves.toEqual({
        content:
          "Error [shell_failed]: bash exited with code 3 (the command ran)\nout\n[stderr] err\n",
        isError: true,
        errorCode: "shell_failed",
      });
    });

    it("treats stderr output with exit 0 as success", async () => {
      await expect(run("echo warning >&2")).resolves.toEqual({
        content: "[stderr] warning\n",
        isError: false,
      });
    });

    it("marks truncated output and never splits a character", async () => {
      await expect(run("printf 'ab€€zzzz'", { maxOutputBytes: 11 })).resolves.toEqual({
        content:
          "ab\n[output truncated: 6 bytes (0 lines) left out; the whole output could not be saved]\nzzzz",
        isError: false,
      });
    });

    it("times out, kills a grandchild, and says so", async () => {
      const pidFile = join(workspace, "grandchild.pid");
      const result = await run(
        `bash -c 'sleep 300 & echo $! > ${pidFile}; wait' & echo begun; wait`,
        {
          timeoutMs: 1_500,
        },
      );
      expect(result).toEqual({
        content:
          "Error [shell_timeout]: Command timed out after 1.5 s and was killed with everything it started (the command ran)\nbegun\n",
        isError: true,
        errorCode: "shell_timeout",
      });
      const grandchild = Number((await readFile(pidFile, "utf8")).trim());
      leftoverPids.push(grandchild);
      const deadline = Date.now() + 5_000;
      while (!isGone(grandchild) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(isGone(grandchild)).toBe(true);
    });

    it("returns at once when a background child keeps the pipes open", async () => {
      const pidFile = join(workspace, "background.pid");
      const result = await run(`sleep 40 & echo $! > ${pidFile}; echo started`);
      leftoverPids.push(Number((await readFile(pidFile, "utf8")).trim()));
      expect(result).toEqual({ content: "started\n", isError: false });
    }, 10_000);

    it("passes the call's abort signal through", async () => {
      // Aborted once the command has printed (it then makes a file): a fixed 500 ms could come
      // first on a loaded machine.
      const controller = new AbortController();
      const running = run("echo begun; : > begun; sleep 300", {}, controller.signal);
      while (!existsSync(join(workspace, "begun"))) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      controller.abort();
      await expect(running).resolves.toEqual({
        content:
          "Error [shell_cancelled]: Command was cancelled before it finished (the command ran)\nbegun\n",
        isError: true,
        errorCode: "shell_cancelled",
      });
    });

    it("reports a shell that cannot start", async () => {
      const missing = join(workspace, "no-bash");
      await expect(run("echo hi", { executable: missing })).resolves.toEqual({
        content: `Error [shell_start_failed]: Could not start ${missing}: ENOENT (no such file) (the command did not run)`,
        isError: true,
        errorCode: "shell_start_failed",
      });
    });
  },
);
