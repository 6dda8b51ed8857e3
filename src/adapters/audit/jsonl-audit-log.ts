import { createHash, randomUUID } from "node:crypto";
import { open } from "node:fs/promises";
import type { AuditSink } from "../../core/audit.js";
import { canonicalJson } from "../../core/canonical-json.js";
import type { PermissionDecision } from "../../core/permission-decision.js";
import type { PermissionRequest } from "../../core/permission-request.js";

/** One line of the audit log; the fields are written in this order. */
export interface AuditRecord {
  readonly time: string;
  readonly runId: string;
  readonly callId: string;
  readonly tool: string;
  readonly behavior: string;
  readonly source: string;
  readonly reason: string;
  /** SHA-256 of the canonical JSON of the validated arguments: provable, without storing secrets. */
  readonly argumentsSha256: string;
  readonly chapter: number;
  readonly executionEnvironment?: string;
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
 */
export class JsonlAuditLog implements AuditSink {
  readonly runId: string;
  readonly #options: JsonlAuditLogOptions;

  constructor(options: JsonlAuditLogOptions) {
    this.#options = options;
    this.runId = options.runId ?? randomUUID();
  }

  async record(request: PermissionRequest, decision: PermissionDecision): Promise<void> {
    const line = `${JSON.stringify(this.toRecord(request, decision))}\n`;
    const file = await open(this.#options.path, "a", 0o600);
    try {
      await file.appendFile(line, "utf8");
      await file.datasync();
    } finally {
      await file.close();
    }
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
      argumentsSha256: sha256(canonicalJson(request.call.arguments)),
      chapter: this.#options.chapter,
      ...(request.executionEnvironment === undefined
        ? {}
        : { executionEnvironment: request.executionEnvironment }),
    };
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
