import type { PermissionDecision } from "./permission-decision.js";
import type { PermissionRequest } from "./permission-request.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";

/** A run grant (`a` at `[y/N/a]`) the person took back with `/permissions revoke N`. */
export interface RevokedRunGrant {
  readonly id: number;
  readonly toolName: string;
  /** The action's arguments as canonical JSON. */
  readonly arguments: string;
  readonly environment: string | undefined;
}

/** Receives every final decision before the handler may run. A throw stops the handler. */
export interface AuditSink {
  record(request: PermissionRequest, decision: PermissionDecision): Promise<void> | void;
  /** After the call: whether it ran and how it ended. Best effort: the action already happened. */
  recordOutcome?(outcome: ToolOutcome): Promise<void> | void;
  /** A run grant was revoked: what it allowed no longer passes without asking. */
  recordRevocation?(grant: RevokedRunGrant): Promise<void> | void;
}
