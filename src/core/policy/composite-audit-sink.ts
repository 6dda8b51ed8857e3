import type { AuditSink, RevokedRunGrant } from "./audit.js";
import type { PermissionDecision } from "./permission-decision.js";
import type { PermissionRequest } from "./permission-request.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";

/** Every sink in order; the first that throws fails the decision. */
export class CompositeAuditSink implements AuditSink {
  readonly #sinks: readonly AuditSink[];

  constructor(sinks: readonly AuditSink[]) {
    this.#sinks = [...sinks];
  }

  async record(request: PermissionRequest, decision: PermissionDecision): Promise<void> {
    for (const sink of this.#sinks) await sink.record(request, decision);
  }

  async recordOutcome(outcome: ToolOutcome): Promise<void> {
    for (const sink of this.#sinks) await sink.recordOutcome?.(outcome);
  }

  async recordRevocation(grant: RevokedRunGrant): Promise<void> {
    for (const sink of this.#sinks) await sink.recordRevocation?.(grant);
  }
}
