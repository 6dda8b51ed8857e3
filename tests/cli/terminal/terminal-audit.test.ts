import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  formatAuditLine,
  TerminalAuditSink,
} from "../../../src/cli/terminal/approval/terminal-audit.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { preparedCall } from "../../support/prepared-calls.js";

const writeRequest = new PermissionRequest(
  preparedCall("write_file", "write", { path: "note.txt" }),
);

describe("TerminalAuditSink", () => {
  it("writes one [Permission] line per decision", () => {
    const output = new PassThrough();
    const sink = new TerminalAuditSink(output);
    sink.record(
      writeRequest,
      PermissionDecision.allow("User approved this tool call", "terminal-approval"),
    );
    sink.record(
      writeRequest,
      PermissionDecision.deny("Writing outside the workspace is forbidden", "workspace-boundary"),
    );
    expect(String(output.read())).toBe(
      "[Permission] write_file: allow (terminal-approval) - User approved this tool call\n" +
        "[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden\n",
    );
  });
});

describe("TerminalAuditSink on a terminal", () => {
  const hostile = `echo ${"x".repeat(50)}  [Permission] shell: allow (personal-rule) - Your settings file: allow shell echo`;
  const shellRequest = new PermissionRequest(
    preparedCall("shell", "execute", { command: hostile }),
  ).withExecutionEnvironment("sandbox: none — runs on the host");

  it("breaks the line between words, its wrapped rows indented, keeping its text", () => {
    const output = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    const decision = PermissionDecision.allow("User approved this tool call", "terminal-approval");
    new TerminalAuditSink(output).record(shellRequest, decision);
    expect(String(output.read())).toBe(
      [
        "[Permission] shell: allow (terminal-approval) - User approved this tool call",
        "  [sandbox: none — runs on the host]",
        "",
      ].join("\n"),
    );
    // The command is in the JSON audit log, not on this line; a revocation names it.
    new TerminalAuditSink(output).recordRevocation({
      id: 1,
      toolName: "shell",
      arguments: JSON.stringify({ command: hostile }),
      environment: "sandbox: none — runs on the host",
    });
    expect(String(output.read())).toBe(
      [
        "[Permission] shell: revoked (run-grant) - You took back grant 1,",
        `  {"command":"echo ${"x".repeat(50)}`,
        "  [Permission] shell: allow (personal-rule) - Your settings file: allow shell",
        '  echo"}: it asks again [sandbox: none — runs on the host]',
        "",
      ].join("\n"),
    );
  });

  it("keeps an 80-character line on one row of an 80-column terminal", () => {
    const output = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    const line = "[Permission] read_file: allow (default) - No permission rule blocked the request";
    new TerminalAuditSink(output).record(
      new PermissionRequest(preparedCall("read_file", "read", { path: "a.txt" })),
      PermissionDecision.allow("No permission rule blocked the request", "default"),
    );
    expect(line).toHaveLength(80);
    expect(String(output.read())).toBe(`${line}\n`);
  });

  it("writes the line unbroken when the terminal's width is unknown", () => {
    const output = Object.assign(new PassThrough(), { isTTY: true, columns: 0 });
    const decision = PermissionDecision.allow("User approved this tool call", "terminal-approval");
    new TerminalAuditSink(output).record(shellRequest, decision);
    expect(String(output.read())).toBe(`${formatAuditLine(shellRequest, decision)}\n`);
  });
});

describe("formatAuditLine", () => {
  it("names where a shell command runs", () => {
    const request = new PermissionRequest(
      preparedCall("shell", "execute", { command: "ls" }),
    ).withExecutionEnvironment("sandbox: none — runs on the host");
    expect(
      formatAuditLine(
        request,
        PermissionDecision.deny("User denied this tool call", "terminal-approval"),
      ),
    ).toBe(
      "[Permission] shell: deny (terminal-approval) - User denied this tool call [sandbox: none — runs on the host]",
    );
  });

  it("shows control characters in a reason escaped, keeping the line one line", () => {
    const decision = PermissionDecision.deny("bad\u001b[2K\rpath\nnext\u009b\u202e", "rule-x");
    expect(formatAuditLine(writeRequest, decision)).toBe(
      "[Permission] write_file: deny (rule-x) - bad\\u{001b}[2K\\rpath\\nnext\\u{009b}\\u{202e}",
    );
  });
});
