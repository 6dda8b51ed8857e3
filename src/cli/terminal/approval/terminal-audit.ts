import type { AuditSink, RevokedRunGrant } from "../../../core/policy/audit.js";
import type { PermissionDecision } from "../../../core/policy/permission-decision.js";
import type { PermissionRequest } from "../../../core/policy/permission-request.js";
import { escapeForPrompt } from "../render/terminal-text.js";

/** One stderr line per final decision, e.g. `[Permission] glob: allow (default) - No permission …`. */
export class TerminalAuditSink implements AuditSink {
  readonly #output: NodeJS.WritableStream;

  constructor(output: NodeJS.WritableStream) {
    this.#output = output;
  }

  record(request: PermissionRequest, decision: PermissionDecision): void {
    this.#output.write(`${formatAuditLine(request, decision)}\n`);
  }

  recordRevocation(grant: RevokedRunGrant): void {
    const where = grant.environment === undefined ? "" : ` [${grant.environment}]`;
    const line = `[Permission] ${grant.toolName}: revoked (run-grant) - You took back grant ${String(grant.id)}, ${grant.arguments}: it asks again${where}`;
    this.#output.write(`${escapeForPrompt(line)}\n`);
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
