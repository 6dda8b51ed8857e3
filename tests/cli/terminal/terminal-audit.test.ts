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
