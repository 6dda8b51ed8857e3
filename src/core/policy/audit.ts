import type { PermissionDecision } from "./permission-decision.js";
import type { PermissionRequest } from "./permission-request.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";

/** Receives every final decision before the handler may run. A throw stops the handler. */
export interface AuditSink {
  record(request: PermissionRequest, decision: PermissionDecision): Promise<void> | void;
  /** After the call: whether it ran and how it ended. Best effort: the action already happened. */
  recordOutcome?(outcome: ToolOutcome): Promise<void> | void;
}
