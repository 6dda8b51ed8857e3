import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { closeSync, constants, existsSync, openSync } from "node:fs";
import {
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JsonlAuditLog } from "../../../src/adapters/audit/jsonl-audit-log.js";
import { HarnessFileError } from "../../../src/adapters/filesystem/harness-files.js";
import { buildAgent } from "../../../src/bootstrap/build-agent.js";
import type { CommandResult, CommandRunner } from "../../../src/core/ports/command-runner.js";
import { CompositeAuditSink } from "../../../src/core/policy/composite-audit-sink.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { P03 } from "../../../src/core/profiles.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { formatAuditLine } from "../../../src/cli/terminal/approval/terminal-audit.js";
import { createShellTool } from "../../../src/features/shell-tool.js";
import { RecordingApprover, RecordingAuditSink } from "../../support/permission-fakes.js";
import { preparedCall } from "../../support/prepared-calls.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";

const FIXED_TIME = new Date("2025-01-02T03:04:05.678Z");
const allowByPerson = PermissionDecision.allow("User approved this tool call", "terminal-approval");

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function log(path: string, chapter = 3): JsonlAuditLog {
  return new JsonlAuditLog({ path, chapter, runId: "run-1", now: () => FIXED_TIME });
}

async function lines(path: string): Promise<unknown[]> {
  const text = await readFile(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line): unknown => JSON.parse(line));
}

class NoShell implements CommandRunner {
  readonly shellName = "no shell";
  run(): Promise<CommandResult> {
    return Promise.reject(new Error("no shell call is expected in this test"));
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(await realpath(tmpdir()), "audit-log-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("JsonlAuditLog", () => {
  it("appends one JSON object per decision with every field", async () => {
    const path = join(dir, "audit.jsonl");
    const audit = log(path);
    const write = new PermissionRequest(
      preparedCall("write_file", "write", { path: "note.txt", command: "x" }, "call_write"),
    );
    const shell = new PermissionRequest(
      preparedCall("shell", "execute", { command: "ls" }, "call_shell"),
    ).withExecutionEnvironment("sandbox: none — runs on the host");
    await audit.record(write, allowByPerson);
    await audit.record(
      shell,
      PermissionDecision.deny("User denied this tool call", "terminal-approval"),
    );

    expect(await lines(path)).toEqual([
      {
        time: "2025-01-02T03:04:05.678Z",
        runId: "run-1",
        callId: "call_write",
        tool: "write_file",
        behavior: "allow",
        source: "terminal-approval",
        reason: "User approved this tool call",
        scope: "this call only",
        argumentsSha256: sha256('{"command":"x","path":"note.txt"}'),
        chapter: 3,
      },
      {
        time: "2025-01-02T03:04:05.678Z",
        runId: "run-1",
        callId: "call_shell",
        tool: "shell",
        behavior: "deny",
        source: "terminal-approval",
        reason: "User denied this tool call",
        scope: "this call only",
        argumentsSha256: sha256('{"command":"ls"}'),
        chapter: 3,
        executionEnvironment: "sandbox: none — runs on the host",
      },
    ]);
  });

  it("records a decision's own scope where its source names one (seed 004)", () => {
    const read = new PermissionRequest(
      preparedCall("read_file", "read", { path: "../x" }, "call_read"),
    );
    const record = log(join(dir, "scoped.jsonl")).toRecord(
      read,
      PermissionDecision.deny(
        "Reading outside the workspace is forbidden",
        "workspace-boundary",
        'read of "../x" by read_file',
      ),
    );
    expect(record.scope).toBe('read of "../x" by read_file');
  });

  it("records the shell's final arguments as executed beside the model's arguments' hash", () => {
    const shell = createShellTool({
      runner: { shellName: "bash", run: () => Promise.reject(new Error("never runs")) },
      workspace: "/ws",
      timeoutMs: 30_000,
    });
    const outcome = new ToolRegistry([shell])
      .snapshot()
      .prepare({ id: "call_shell", name: "shell", arguments: '{"command":"ls"}' });
    if (!outcome.ok) throw new Error(outcome.result.content);
    const request = new PermissionRequest(outcome.call).withExecutionEnvironment(
      "sandbox: bwrap (network off, writable: /ws)",
    );
    const record = log(join(dir, "unused.jsonl")).toRecord(request, allowByPerson);
    expect(record.argumentsSha256).toBe(sha256('{"command":"ls"}'));
    expect(record.finalArguments).toEqual({
      cwd: "/ws",
      timeoutMs: 30_000,
      maxOutputBytes: 51_200,
      shell: "bash",
      sandbox: "sandbox: bwrap (network off, writable: /ws)",
    });
    expect(formatAuditLine(request, allowByPerson)).toBe(
      "[Permission] shell: allow (terminal-approval) - User approved this tool call " +
        "[sandbox: bwrap (network off, writable: /ws)] " +
        "{cwd=/ws timeoutMs=30000 maxOutputBytes=51200 shell=bash}",
    );
  });

  it("appends each call's outcome as its own line after the decision", async () => {
    const path = join(dir, "outcomes.jsonl");
    const audit = log(path);
    await audit.record(
      new PermissionRequest(preparedCall("shell", "execute", { command: "ls" }, "call_shell")),
      allowByPerson,
    );
    await audit.recordOutcome({
      callId: "call_shell",
      tool: "shell",
      executed: "yes",
      status: "execution_failed",
      boundary: "execution",
      errorCode: "shell_failed",
      exitCode: 2,
      durationMs: 12,
    });
    audit.close();
    const lines = (await readFile(path, "utf8")).trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1] ?? "")).toEqual({
      time: FIXED_TIME.toISOString(),
      runId: "run-1",
      callId: "call_shell",
      tool: "shell",
      outcome: {
        executed: "yes",
        status: "execution_failed",
        boundary: "execution",
        errorCode: "shell_failed",
        exitCode: 2,
        durationMs: 12,
      },
    });
  });

  it("hashes the canonical arguments: key order does not matter, values do", () => {
    const audit = log(join(dir, "unused.jsonl"));
    const hashOf = (args: Record<string, unknown>): string =>
      audit.toRecord(
        new PermissionRequest(preparedCall("write_file", "write", args)),
        allowByPerson,
      ).argumentsSha256;
    expect(hashOf({ path: "a", command: "b" })).toBe(hashOf({ command: "b", path: "a" }));
    expect(hashOf({ path: "a", command: "b" })).not.toBe(hashOf({ path: "a", command: "c" }));
  });

  it("gives each log a fresh run id unless one is given", () => {
    const first = new JsonlAuditLog({ path: join(dir, "a"), chapter: 3 });
    const second = new JsonlAuditLog({ path: join(dir, "a"), chapter: 3 });
    expect(first.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.runId).not.toBe(second.runId);
  });

  it("appends to an existing file and never truncates it", async () => {
    const path = join(dir, "audit.jsonl");
    await writeFile(path, '{"earlier":true}\n');
    await log(path).record(new PermissionRequest(preparedCall("glob", "read")), allowByPerson);
    await log(path).record(new PermissionRequest(preparedCall("glob", "read")), allowByPerson);
    const all = await lines(path);
    expect(all).toHaveLength(3);
    expect(all[0]).toEqual({ earlier: true });
  });

  it.skipIf(process.platform === "win32")(
    "creates the file readable by its owner only (POSIX only: Windows has no permission bits)",
    async () => {
      const path = join(dir, "audit.jsonl");
      await log(path).record(new PermissionRequest(preparedCall("glob", "read")), allowByPerson);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    },
  );

  // The file is opened once, when the log is built: a bad path is a configuration error then.
  it("refuses a directory when it is built", () => {
    expect(() => log(dir)).toThrow(
      new HarnessFileError(
        `Cannot open the audit log ${dir}: it is a directory; the harness only uses a regular file`,
      ),
    );
  });

  it("refuses a path under a regular file when it is built", async () => {
    const file = join(dir, "plain.txt");
    await writeFile(file, "");
    expect(() => log(join(file, "audit.jsonl"))).toThrow(HarnessFileError);
    expect(await readFile(file, "utf8")).toBe("");
  });

  it.skipIf(process.platform === "win32")(
    "refuses a symbolic link, even to a regular file, and leaves its target alone (POSIX only)",
    async () => {
      const target = join(dir, "target.txt");
      await writeFile(target, "untouched\n");
      const link = join(dir, "audit.jsonl");
      await symlink(target, link);
      expect(() => log(link)).toThrow(
        new HarnessFileError(
          `Cannot open the audit log ${link}: it is a symbolic link; the harness does not follow links for its own files`,
        ),
      );
      const dangling = join(dir, "dangling.jsonl");
      await symlink(join(dir, "created-by-link.txt"), dangling);
      expect(() => log(dangling)).toThrow(/it is a symbolic link/);
      expect(await readFile(target, "utf8")).toBe("untouched\n");
      expect(existsSync(join(dir, "created-by-link.txt"))).toBe(false);
    },
  );

  it.skipIf(process.platform === "win32")(
    "refuses a FIFO at once, with or without a reader, and a device (POSIX only)",
    () => {
      const fifo = join(dir, "audit.fifo");
      execFileSync("mkfifo", [fifo]);
      // No reader: O_NONBLOCK makes the open fail instead of waiting for one.
      expect(() => log(fifo)).toThrow(
        new HarnessFileError(
          `Cannot open the audit log ${fifo}: it is a FIFO or socket; the harness only uses a regular file`,
        ),
      );
      // A reader: the open succeeds, and fstat on the descriptor refuses it.
      const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        expect(() => log(fifo)).toThrow(/it is a FIFO; the harness only uses a regular file/);
      } finally {
        closeSync(reader);
      }
      expect(() => log("/dev/null")).toThrow(
        /it is a device; the harness only uses a regular file/,
      );
    },
  );

  it.skipIf(process.platform === "win32")(
    "keeps writing to the file it opened when the name is swapped for a link (POSIX only)",
    async () => {
      const path = join(dir, "audit.jsonl");
      const audit = log(path);
      const request = new PermissionRequest(preparedCall("glob", "read"));
      await audit.record(request, allowByPerson);
      const original = join(dir, "moved.jsonl");
      await rename(path, original);
      const victim = join(dir, "victim.sh");
      await writeFile(victim, "echo safe\n");
      await symlink(victim, path);

      await audit.record(request, allowByPerson);

      expect(await readFile(victim, "utf8")).toBe("echo safe\n");
      expect(await lines(original)).toHaveLength(2);
    },
  );

  it("fails every decision once closed", async () => {
    const path = join(dir, "audit.jsonl");
    const audit = log(path);
    audit.close();
    await expect(
      audit.record(new PermissionRequest(preparedCall("glob", "read")), allowByPerson),
    ).rejects.toThrow(`The audit log ${path} is closed`);
    expect(await readFile(path, "utf8")).toBe("");
  });
});

describe("an audit log that cannot be written, in a P03 agent", () => {
  it("fails the decision closed: permission_evaluation_error and no file written", async () => {
    const workspace = join(dir, "workspace");
    await mkdir(workspace);
    // Opened at build time, so a write failure is what is left: a closed descriptor.
    const broken = log(join(dir, "audit.jsonl"));
    broken.close();
    const approver = new RecordingApprover(() => allowByPerson);
    const terminal = new RecordingAuditSink();
    const agent = buildAgent(P03, {
      model: new ScriptedModelClient([
        toolCallReply([
          {
            id: "call_write",
            name: "write_file",
            arguments: { path: "note.txt", content: "hello, world\n" },
          },
        ]),
        textReply("done"),
      ]),
      workspace,
      commandRunner: new NoShell(),
      approvalProvider: approver,
      auditSink: new CompositeAuditSink([broken, terminal]),
    });

    const result = await agent.run("Write a note");

    const toolMessages = result.history.filter((message) => message.role === "tool");
    expect(toolMessages).toEqual([
      {
        role: "tool",
        toolCallId: "call_write",
        content: "Error [permission_evaluation_error]: Permission evaluation failed",
      },
    ]);
    expect(result.finalText).toBe("done");
    expect(approver.requests).toHaveLength(1);
    // The durable log comes first; the terminal line is never shown for a decision not recorded.
    expect(terminal.entries).toEqual([]);
    expect(existsSync(join(workspace, "note.txt"))).toBe(false);
  });
});
