import type { AuditSink, RevokedRunGrant } from "../../../core/policy/audit.js";
import type { PermissionDecision } from "../../../core/policy/permission-decision.js";
import type { PermissionRequest } from "../../../core/policy/permission-request.js";
import { writeHarnessLines, type HarnessOutput } from "../render/harness-rows.js";
import { escapeForPrompt } from "../render/terminal-text.js";

/**
 * One stderr line per final decision, e.g. `[Permission] glob: allow (default) - No permission …`.
 * On a terminal the line is broken into rows between words, its wrapped rows indented: the
 * command or path in it is the model's, and a row the terminal wrapped to column 0 could pass for
 * another audit line. Elsewhere it is written as `formatAuditLine` gives it, byte for byte.
 */
export class TerminalAuditSink implements AuditSink {
  readonly #output: HarnessOutput;

  constructor(output: HarnessOutput) {
    this.#output = output;
  }

  record(request: PermissionRequest, decision: PermissionDecision): void {
    writeHarnessLines(this.#output, [formatAuditLine(request, decision)]);
  }

  recordRevocation(grant: RevokedRunGrant): void {
    const where = grant.environment === undefined ? "" : ` [${grant.environment}]`;
    const line = `[Permission] ${grant.toolName}: revoked (run-grant) - You took back grant ${String(grant.id)}, ${grant.arguments}: it asks again${where}`;
    writeHarnessLines(this.#output, [escapeForPrompt(line)]);
  }
}

export function formatAuditLine(request: PermissionRequest, decision: PermissionDecision): string {
  const where =
    request.executionEnvironment === undefined ? "" : ` [${request.executionEnvironment}]`;
  const final = request.call.finalArguments;
  // After the chapter-3 text, one form: ` {cwd=/ws timeoutMs=120000 maxOutputBytes=51200 shell=bash}`.
  // The environment's names stay in the JSON audit log: the terminal line stays one short line.
  const how =
    final === undefined
      ? ""
      : ` {${Object.entries(final)
          .filter(([name]) => name !== "environmentNames")
          .map(([name, value]) => `${name}=${String(value)}`)
          .join(" ")}}`;
  // A write through a link names the file it lands on, as the prompt did.
  const lands =
    request.landsOn === undefined
      ? ""
      : ` (writes ${JSON.stringify(request.landsOn)} through the link ${JSON.stringify(targetOf(request))})`;
  return escapeForPrompt(
    `[Permission] ${request.toolName}: ${decision.behavior} (${decision.source}) - ${decision.reason}${where}${how}${lands}`,
  );
}

function targetOf(request: PermissionRequest): string {
  const path = request.call.arguments.path;
  return typeof path === "string" ? path : "";
}
