import { createHash, randomUUID } from "node:crypto";
import { closeSync } from "node:fs";
import type { AuditSink, RevokedRunGrant } from "../../core/policy/audit.js";
import { canonicalJson } from "../../core/common/canonical-json.js";
import { THIS_CALL_ONLY, type PermissionDecision } from "../../core/policy/permission-decision.js";
import type { PermissionRequest } from "../../core/policy/permission-request.js";
import type { ToolOutcome } from "../../core/tools/tool-outcome.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { appendDurably, HarnessFileError, openHarnessOutput } from "../filesystem/index.js";

/** One line of the audit log; the fields are written in this order. */
export interface AuditRecord {
  readonly time: string;
  readonly runId: string;
  readonly callId: string;
  readonly tool: string;
  readonly behavior: string;
  readonly source: string;
  readonly reason: string;
  /**
   * What the decision covers (seed 004): its source's own scope where it names one (P04: `read of
   * "src/a.ts"…`, `every fetch_url call`), else `this call only` (an approval grants one call).
   */
  readonly scope: string;
  /** SHA-256 of the canonical JSON of the validated arguments: provable, without storing secrets. */
  readonly argumentsSha256: string;
  readonly chapter: number;
  readonly executionEnvironment?: string;
  /**
   * What the harness decided beyond the model's arguments, as the call will be executed: for the
   * shell `cwd`, `timeoutMs`, `maxOutputBytes`, `shell`, and `sandbox` (where it runs).
   */
  readonly finalArguments?: Readonly<Record<string, string | number | boolean>>;
  /** The file a write lands on when a link led its path elsewhere (workspace-relative). */
  readonly landsOn?: string;
}

export interface JsonlAuditLogOptions {
  readonly path: string;
  readonly chapter: number;
  readonly runId?: string;
  readonly now?: () => Date;
}

/**
 * Appends one JSON line per final decision and flushes it to disk before returning, so the record
 * exists before the handler runs. Any failure throws, and the policy then denies the call.
 *
 * The file is opened once, here (never through a symbolic link, only a regular file, created
 * owner-only), and every line goes to that descriptor: a command that later replaces the name with
 * a link or a FIFO redirects nothing. A file that cannot be opened throws HarnessFileError.
 */
export class JsonlAuditLog implements AuditSink {
  readonly runId: string;
  /** Absolute real path of the log, for the workspace's protected files. */
  readonly realPath: string;
  readonly #options: JsonlAuditLogOptions;
  #fd: number | undefined;

  constructor(options: JsonlAuditLogOptions) {
    this.#options = options;
    this.runId = options.runId ?? randomUUID();
    try {
      const output = openHarnessOutput(options.path, { truncate: false });
      this.#fd = output.fd;
      this.realPath = output.realPath;
    } catch (error) {
      throw new HarnessFileError(
        `Cannot open the audit log ${options.path}: ${firstLineOfError(error)}`,
      );
    }
  }

  async record(request: PermissionRequest, decision: PermissionDecision): Promise<void> {
    await this.#append(this.toRecord(request, decision));
  }

  /**
   * After the call, one more line for it: `{time, runId, callId, tool, outcome: {executed, status,
   * boundary, exitCode?, durationMs, …}}`. Lines with `behavior` are decisions; with `outcome`,
   * outcomes.
   */
  async recordOutcome(outcome: ToolOutcome): Promise<void> {
    const { callId, tool, ...rest } = outcome;
    await this.#append({
      time: (this.#options.now?.() ?? new Date()).toISOString(),
      runId: this.runId,
      callId,
      tool,
      outcome: rest,
    });
  }

  /**
   * P04: a person's answer to a waiting request (`agent approve`/`deny`), one line
   * `{time, runId, approval: {requestId, actionDigest, answer, answeredAt, expiresAt?, by}}`.
   */
  async recordApprovalAnswer(answer: Readonly<Record<string, unknown>>): Promise<void> {
    await this.#append({
      time: (this.#options.now?.() ?? new Date()).toISOString(),
      runId: this.runId,
      approval: answer,
    });
  }

  /**
   * `/permissions revoke N`: `{time, runId, tool, revoked: {grant, argumentsSha256,
   * executionEnvironment?}}`; the same action asks again from then on.
   */
  async recordRevocation(grant: RevokedRunGrant): Promise<void> {
    await this.#append({
      time: (this.#options.now?.() ?? new Date()).toISOString(),
      runId: this.runId,
      tool: grant.toolName,
      revoked: {
        grant: grant.id,
        source: "run-grant",
        argumentsSha256: sha256(grant.arguments),
        ...(grant.environment === undefined ? {} : { executionEnvironment: grant.environment }),
      },
    });
  }

  /**
   * `/undo` or `agent undo`: what it decided about one call, one line
   * `{time, runId, callId, tool, undo: {result, detail}}`.
   */
  async recordUndo(decision: {
    readonly callId: string;
    readonly tool: string;
    readonly result: string;
    readonly detail: string;
  }): Promise<void> {
    await this.#append({
      time: (this.#options.now?.() ?? new Date()).toISOString(),
      runId: this.runId,
      callId: decision.callId,
      tool: decision.tool,
      undo: { result: decision.result, detail: decision.detail },
    });
  }

  async #append(record: object): Promise<void> {
    const fd = this.#fd;
    if (fd === undefined) throw new Error(`The audit log ${this.#options.path} is closed`);
    await appendDurably(fd, `${JSON.stringify(record)}\n`);
  }

  /** Closes the descriptor; a later decision then fails (and the policy denies the call). */
  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  toRecord(request: PermissionRequest, decision: PermissionDecision): AuditRecord {
    return {
      time: (this.#options.now?.() ?? new Date()).toISOString(),
      runId: this.runId,
      callId: request.call.callId,
      tool: request.toolName,
      behavior: decision.behavior,
      source: decision.source,
      reason: decision.reason,
      scope: decision.scope ?? THIS_CALL_ONLY,
      argumentsSha256: sha256(canonicalJson(request.call.arguments)),
      chapter: this.#options.chapter,
      ...(request.executionEnvironment === undefined
        ? {}
        : { executionEnvironment: request.executionEnvironment }),
      ...(request.call.finalArguments === undefined
        ? {}
        : { finalArguments: finalArgumentsOf(request) }),
      ...(request.landsOn === undefined ? {} : { landsOn: request.landsOn }),
    };
  }
}

function finalArgumentsOf(request: PermissionRequest): AuditRecord["finalArguments"] {
  const sandbox = request.executionEnvironment;
  return { ...request.call.finalArguments, ...(sandbox === undefined ? {} : { sandbox }) };
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
