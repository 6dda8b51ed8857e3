/**
 * What the loop knows about one call as it goes, and the outcome record made from it: whether it
 * ran (yes / no / unknown), how it ended, and which boundary decided. Pure functions over the
 * decision and the handler's result; `AgentRunner` calls them, nothing here runs anything.
 */
import type { ToolCall } from "../ports/messages.js";
import type { PermissionDecision } from "../policy/permission-decision.js";
import type { PreparedToolCall } from "../tools/prepared-tool-call.js";
import type { ExecutionFacts } from "../tools/tool-definition.js";
import { RECHECK_ERRORS } from "../grants/p04-recheck.js";
import { P04_DENIALS } from "../grants/policy-decision.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";
import { EXTERNAL_ERRORS } from "../tools/external-errors.js";
import { toolError, type ToolResult } from "../tools/tool-result.js";

export const PERMISSION_EVALUATION_FAILED = toolError(
  "permission_evaluation_error",
  "Permission evaluation failed",
);

/** The facts the loop learns on the way: the result and, for the outcome, how it came about. */
export interface Decided {
  readonly result: ToolResult;
  readonly executed: ToolOutcome["executed"];
  readonly status: ToolOutcome["status"];
  readonly boundary: ToolOutcome["boundary"];
  readonly decision?: ToolOutcome["decision"];
  readonly finalArguments?: ToolOutcome["finalArguments"];
}

export const EVALUATION_FAILED: Decided = {
  result: PERMISSION_EVALUATION_FAILED,
  executed: "no",
  status: "denied",
  boundary: "policy",
};

export function rejected(result: ToolResult): Decided {
  if (result.errorCode === "unknown_tool") {
    return { result, executed: "no", status: "unknown_tool", boundary: "visibility" };
  }
  return { result, executed: "no", status: "invalid_arguments", boundary: "protocol" };
}

/** Who said no: the person at the prompt, the execution environment, or the product's policy. */
export function denied(decision: PermissionDecision, boundary: ToolOutcome["boundary"]): Decided {
  return {
    result: decision.toToolResult(),
    executed: "no",
    status: "denied",
    boundary,
    decision: {
      source: decision.source,
      reason: decision.reason,
      ...(decision.scope === undefined ? {} : { scope: decision.scope }),
    },
  };
}

/**
 * How a handler's result reads as a fact. A command that started ran, whatever its exit; one that
 * could not start did not. File tools check before they touch anything and write atomically, so
 * their errors mean nothing happened. A handler that threw or broke its contract: unknown.
 */
export function executionFacts(
  result: ToolResult,
  effect: PreparedToolCall["effect"],
): Omit<Decided, "result"> {
  const boundary = "execution";
  if (!result.isError) return { executed: "yes", status: "ok", boundary };
  switch (result.errorCode) {
    case "shell_timeout":
      return { executed: "yes", status: "timed_out", boundary };
    case "shell_cancelled":
      return { executed: "yes", status: "cancelled", boundary };
    // A command that could not start, or P04's last check before the spawn refused it.
    case "shell_start_failed":
    case RECHECK_ERRORS.notApproved:
    case RECHECK_ERRORS.changed:
    case P04_DENIALS.scriptUnreadable:
    case P04_DENIALS.commandUnbindable:
    case P04_DENIALS.sandboxUnavailable:
      return { executed: "no", status: "execution_failed", boundary };
    case "tool_execution_error":
      return { executed: "unknown", status: "execution_failed", boundary };
    // An external tool's service answered that the call failed: it reached the service.
    case EXTERNAL_ERRORS.toolFailed:
      return { executed: "yes", status: "execution_failed", boundary };
    // The service was not there to take the call: nothing was sent.
    case EXTERNAL_ERRORS.unavailable:
      return { executed: "no", status: "execution_failed", boundary };
    // Sent, and the service went away (or went quiet) before it answered.
    case EXTERNAL_ERRORS.executionUnknown:
      return { executed: "unknown", status: "unknown", boundary };
    case "invalid_tool_result":
      return { executed: "unknown", status: "unknown", boundary };
    case "unknown_tool":
    case "invalid_json":
    case "invalid_arguments":
      return rejected(result);
    case undefined:
    default:
      return {
        executed: effect === "execute" ? "yes" : "no",
        status: "execution_failed",
        boundary,
      };
  }
}

/** A handler is not fully trusted: keep only well-formed facts. */
export function checkedFacts(facts: ExecutionFacts): ExecutionFacts {
  const { exitCode, savedOutput, operationId, notes } = facts;
  return {
    ...(Number.isSafeInteger(exitCode) ? { exitCode } : {}),
    ...(typeof savedOutput === "string" ? { savedOutput } : {}),
    ...(typeof operationId === "string" ? { operationId } : {}),
    ...(wellFormedNotes(notes) ? { notes: [...notes] } : {}),
  };
}

function wellFormedNotes(notes: unknown): notes is readonly string[] {
  return Array.isArray(notes) && notes.every((note) => typeof note === "string");
}

export function outcomeOf(
  call: ToolCall,
  facts: Omit<Decided, "result"> & { readonly result?: ToolResult },
  timing: { readonly durationMs: number; readonly waitedMs: number | undefined },
  environment: string | undefined,
  reported?: ExecutionFacts,
): ToolOutcome {
  const { durationMs, waitedMs } = timing;
  const ran = facts.executed === "yes";
  const errorCode = facts.result?.isError === true ? facts.result.errorCode : undefined;
  return Object.freeze({
    callId: call.id,
    tool: call.name,
    executed: facts.executed,
    status: facts.status,
    boundary: facts.boundary,
    ...(errorCode === undefined ? {} : { errorCode }),
    ...(!ran || reported?.exitCode === undefined ? {} : { exitCode: reported.exitCode }),
    ...(!ran || reported?.savedOutput === undefined ? {} : { savedOutput: reported.savedOutput }),
    // Named whether or not the service answered: the id is what a person asks it about.
    ...(reported?.operationId === undefined ? {} : { operationId: reported.operationId }),
    durationMs,
    ...(waitedMs === undefined ? {} : { waitedMs }),
    ...(environment === undefined ? {} : { environment }),
    ...(facts.decision === undefined ? {} : { decision: facts.decision }),
    ...(facts.finalArguments === undefined ? {} : { finalArguments: facts.finalArguments }),
  });
}
