/**
 * What happened to one tool call, as a fact for the audit trail, the journal and the person: did
 * the action run, how did it end, and which boundary decided. Built by the loop, never by a handler.
 */

/** `unknown`: the handler failed in a way that cannot tell whether its side effect happened. */
export type Executed = "no" | "yes" | "unknown";

export type OutcomeStatus =
  | "ok"
  | "unknown_tool"
  | "invalid_arguments"
  | "denied"
  | "execution_failed"
  | "timed_out"
  | "cancelled"
  | "unknown"
  /** Nothing ran: the run stopped to wait for a person's approval given later (chapter 4). */
  | "waiting";

/**
 * The five boundaries a call passes, in order: tool visibility, protocol (JSON and schema),
 * product policy, user confirmation, execution environment. The one that ended the call decides.
 */
export type Boundary = "visibility" | "protocol" | "policy" | "confirmation" | "execution";

export interface ToolOutcome {
  readonly callId: string;
  readonly tool: string;
  readonly executed: Executed;
  readonly status: OutcomeStatus;
  readonly boundary: Boundary;
  /** The result's error code (`shell_failed`, `permission_denied`, …); absent on success. */
  readonly errorCode?: string;
  /** The command's exit code, when a process ran and exited by itself. */
  readonly exitCode?: number;
  /** Where a long output was saved whole, workspace-relative. */
  readonly savedOutput?: string;
  /** The external operation id a call to another service was sent under (an MCP tool's). */
  readonly operationId?: string;
  /** What the harness decided beyond the model's arguments (cwd, timeout, shell), as executed. */
  readonly finalArguments?: Readonly<Record<string, string | number | boolean>>;
  /** How long the call itself took; the time it waited for the person is not part of it. */
  readonly durationMs: number;
  /** How long the call waited for the person's answer at the prompt, when it was asked. */
  readonly waitedMs?: number;
  /** Where an `execute` tool runs, e.g. `sandbox: none — runs on the host (sandbox off)`. */
  readonly environment?: string;
  /** For a denial: which participant decided, why, and (when it says) what the denial covers. */
  readonly decision?: {
    readonly source: string;
    readonly reason: string;
    readonly scope?: string;
  };
}

/** How the closing line counts calls: `5 calls: 3 ran, 1 denied, 1 failed`. */
export function outcomeCategory(
  outcome: Pick<ToolOutcome, "status">,
): "ran" | "denied" | "rejected" | "failed" | "cancelled" | "unknown" | "waiting" {
  switch (outcome.status) {
    case "ok":
      return "ran";
    case "denied":
      return "denied";
    case "unknown_tool":
    case "invalid_arguments":
      return "rejected";
    case "execution_failed":
    case "timed_out":
      return "failed";
    case "cancelled":
      return "cancelled";
    case "unknown":
      return "unknown";
    case "waiting":
      return "waiting";
  }
}

/** `5 calls: 3 ran, 1 denied, 1 failed`: only the non-zero counts, in a fixed order. */
export function summarizeOutcomes(outcomes: readonly Pick<ToolOutcome, "status">[]): string {
  const order = ["ran", "denied", "rejected", "failed", "cancelled", "unknown", "waiting"] as const;
  const counts = new Map<string, number>();
  for (const outcome of outcomes) {
    const category = outcomeCategory(outcome);
    counts.set(category, (counts.get(category) ?? 0) + 1);
  }
  const parts = order
    .filter((category) => (counts.get(category) ?? 0) > 0)
    .map((category) => `${counts.get(category) ?? 0} ${category}`);
  const total = outcomes.length;
  return `${total} ${total === 1 ? "call" : "calls"}: ${parts.join(", ")}`;
}

/** One line for `--verbose` and logs: `executed yes · status execution_failed · exit 2 · …`. */
export function describeOutcome(outcome: ToolOutcome): string {
  const parts = [
    `executed ${outcome.executed}`,
    `status ${outcome.status}`,
    `boundary ${outcome.boundary}`,
  ];
  if (outcome.exitCode !== undefined) parts.push(`exit ${outcome.exitCode}`);
  parts.push(`${Math.round(outcome.durationMs)} ms`);
  if (outcome.environment !== undefined) parts.push(outcome.environment);
  return parts.join(" · ");
}

/** Every call the run asked for was denied: it answered, but likely did nothing it was asked to. */
export function everyCallDenied(outcomes: readonly Pick<ToolOutcome, "status">[]): boolean {
  return outcomes.length > 0 && outcomes.every((outcome) => outcome.status === "denied");
}
