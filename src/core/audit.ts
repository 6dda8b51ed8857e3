import type { PermissionDecision } from "./permission-decision.js";
import type { PermissionRequest } from "./permission-request.js";

/** Receives every final decision before the handler may run. A throw stops the handler. */
export interface AuditSink {
  record(request: PermissionRequest, decision: PermissionDecision): Promise<void> | void;
}
