import { AgentLimitError, RunCancelledError, RunWaitingError } from "./agent-errors.js";
import { canonicalJson } from "./canonical-json.js";
import type { JournalRecord, RunJournal } from "./journal-records.js";
import type { OpenCall } from "./journal-replay.js";
import { journalClosing, journalStep } from "./run-journaling.js";
import {
  CANCELLED_BEFORE_RUNNING,
  EXECUTION_UNKNOWN,
  withInterruptedResults,
} from "./interrupted-calls.js";
import { firstLineOfError } from "./one-line.js";
import type { Message, ToolCall, ToolMessage } from "./messages.js";
import { validateToolPairing } from "./messages.js";
import type { ModelClient, ModelReply, ModelRequest, TokenUsage } from "./model.js";
import { PermissionDecision } from "./permission-decision.js";
import { PermissionRequest } from "./permission-request.js";
import type { PermissionPolicy } from "./permissions.js";
import {
  environmentLabel,
  type ExecutionEnvironment,
  type ExecutionEnvironmentStatus,
} from "./execution-environment.js";
import type { AuditSink } from "./audit.js";
import type { ExecutionFacts } from "./tool-definition.js";
import type { ToolOutcome } from "./tool-outcome.js";
import type { ToolRegistry, ToolRegistrySnapshot } from "./tool-registry.js";
import { toolError, type ToolResult } from "./tool-result.js";
import {
  checkedFacts,
  denied,
  EVALUATION_FAILED,
  executionFacts,
  outcomeOf,
  rejected,
  type Decided,
} from "./call-facts.js";
import { addUsage, checkedReply } from "./model-reply-checks.js";

export { PERMISSION_EVALUATION_FAILED } from "./call-facts.js";

/** Hooks for the terminal UI. They observe; they never decide. */
export interface AgentObserver {
  onModelRequest?(turn: number, maxTurns: number): void;
  onModelReply?(reply: ModelReply, turn: number): void;
  onToolCallStart?(call: ToolCall): void;
  onToolCallEnd?(
    call: ToolCall,
    result: ToolResult,
    durationMs: number,
    outcome: ToolOutcome,
  ): void;
}

export interface AgentRunnerOptions {
  readonly model: ModelClient;
  readonly registry: ToolRegistry;
  /**
   * Absent only when bootstrap got, before chapter 3, neither an approver nor an execution
   * environment (offline tests): every call then runs unasked.
   */
  readonly policy?: PermissionPolicy;
  readonly maxTurns: number;
  readonly systemPrompt?: string;
  readonly observer?: AgentObserver;
  readonly now?: () => number;
  /** Receives each call's outcome once it is known (the JSON audit log); never decides anything. */
  readonly outcomes?: Pick<AuditSink, "recordOutcome">;
  /** Where `execute` tools run: named in each such call's outcome. */
  readonly executionEnvironment?: ExecutionEnvironment;
  /** The write-ahead journal: each step's record is durable before the step takes effect. */
  readonly journal?: RunJournal;
}

export interface RunResult {
  readonly finalText: string;
  readonly turns: number;
  readonly history: readonly Message[];
  readonly usage: TokenUsage | undefined;
  /** One per tool call, in order: whether it ran and how it ended. */
  readonly outcomes: readonly ToolOutcome[];
}

/** The loop: ask the model, run each tool call through prepare → policy → invoke, repeat. */
export class AgentRunner {
  readonly #options: AgentRunnerOptions;
  /** The journal has its run_started: a later turn (even after a failed first one) is a user_message. */
  #journalStarted = false;

  constructor(options: AgentRunnerOptions) {
    if (!Number.isInteger(options.maxTurns) || options.maxTurns < 1) {
      throw new RangeError("maxTurns must be a positive integer");
    }
    this.#options = options;
  }

  /**
   * `previous`: the history of an earlier run to go on from (a conversation's next turn). A
   * cancelled run throws a `RunCancelledError` that carries the history so far, paired.
   */
  async run(
    prompt: string,
    signal?: AbortSignal,
    previous?: readonly Message[],
  ): Promise<RunResult> {
    const { systemPrompt } = this.#options;
    const history: Message[] = previous === undefined ? [] : [...previous];
    return this.#journaled(history, async () => {
      if (this.#journalStarted) {
        await this.#journal({ type: "user_message", content: prompt });
      } else {
        await this.#journal({
          type: "run_started",
          ...(systemPrompt === undefined ? {} : { systemPrompt }),
          prompt,
        });
        this.#journalStarted = true;
      }
      if (previous === undefined && systemPrompt !== undefined) {
        history.push({ role: "system", content: systemPrompt });
      }
      history.push({ role: "user", content: prompt });
      return this.#loop(history, signal, []);
    });
  }

  /**
   * Goes on with a run rebuilt from its journal (`agent resume`). The last reply's calls are
   * answered first: a finished one keeps its recorded result; one that started and never finished
   * is reported unknown and NOT run again; one that never started takes the normal path.
   */
  async resume(
    history: readonly Message[],
    openCalls: readonly OpenCall[],
    signal?: AbortSignal,
  ): Promise<RunResult> {
    this.#journalStarted = true;
    const resumed: Message[] = [...history];
    return this.#journaled(resumed, async () => {
      await this.#journal({ type: "run_resumed" });
      const last = resumed.at(-1);
      if (last?.role === "assistant" && last.toolCalls.length === 0) {
        // The answer was given; only the closing record was lost.
        return {
          finalText: last.content ?? "",
          turns: 0,
          history: resumed,
          usage: undefined,
          outcomes: [],
        };
      }
      const outcomes: ToolOutcome[] = [];
      const snapshot = this.#options.registry.snapshot();
      for (const open of openCalls) {
        throwIfCancelled(signal);
        let content: string;
        if (open.state === "finished") {
          content = open.content;
        } else if (open.state === "unknown") {
          const outcome = await this.#reportUnknown(open.call);
          outcomes.push(outcome);
          content = EXECUTION_UNKNOWN.content;
        } else {
          const { result, outcome } = await this.#runToolCall(snapshot, open.call, signal);
          outcomes.push(outcome);
          content = result.content;
        }
        resumed.push({ role: "tool", toolCallId: open.call.id, content });
      }
      return this.#loop(resumed, signal, outcomes);
    });
  }

  /**
   * The closing record of a run: finished, cancelled, waiting (written by the call) or failed. A
   * cancelled run carries `history` with every call of its last reply answered, so a conversation
   * goes on knowing what already ran.
   */
  async #journaled(history: Message[], body: () => Promise<RunResult>): Promise<RunResult> {
    let result: RunResult;
    try {
      result = await body();
    } catch (error) {
      if (error instanceof RunCancelledError) {
        await journalClosing(this.#options.journal, { type: "run_cancelled" });
        throw new RunCancelledError(error.message, withInterruptedResults(history));
      }
      if (!(error instanceof RunWaitingError)) {
        await journalClosing(this.#options.journal, {
          type: "run_failed",
          error: firstLineOfError(error),
        });
      }
      throw error;
    }
    await this.#journal({ type: "run_finished", finalText: result.finalText });
    return result;
  }

  #journal(record: JournalRecord): Promise<void> {
    return journalStep(this.#options.journal, record);
  }

  /** A call that started before the process died: its effect is unknown, and the person is told. */
  async #reportUnknown(call: ToolCall): Promise<ToolOutcome> {
    this.#notify((observer) => observer.onToolCallStart?.(call));
    const outcome = outcomeOf(
      call,
      { result: EXECUTION_UNKNOWN, executed: "unknown", status: "unknown", boundary: "execution" },
      0,
      undefined,
      undefined,
    );
    await this.#journal({
      type: "execution_finished",
      callId: call.id,
      outcome,
      content: EXECUTION_UNKNOWN.content,
    });
    this.#notify((observer) => observer.onToolCallEnd?.(call, EXECUTION_UNKNOWN, 0, outcome));
    await this.#recordOutcome(outcome);
    return outcome;
  }

  async #loop(
    history: Message[],
    signal: AbortSignal | undefined,
    outcomes: ToolOutcome[],
  ): Promise<RunResult> {
    const { model, registry, maxTurns } = this.#options;
    let usage: TokenUsage | undefined;
    for (let turn = 1; turn <= maxTurns; turn += 1) {
      throwIfCancelled(signal);
      validateToolPairing(history);
      const snapshot = registry.snapshot();
      this.#notify((observer) => observer.onModelRequest?.(turn, maxTurns));
      const reply = await completeOrCancel(model, {
        messages: [...history],
        tools: snapshot.openAITools(),
        ...(signal === undefined ? {} : { signal }),
      });
      this.#notify((observer) => observer.onModelReply?.(reply, turn));
      usage = addUsage(usage, reply.usage);
      const message = checkedReply(reply, history);
      await this.#journal({
        type: "model_reply",
        message,
        ...(reply.usage === undefined ? {} : { usage: reply.usage }),
      });
      history.push(message);

      if (message.toolCalls.length === 0) {
        return { finalText: message.content ?? "", turns: turn, history, usage, outcomes };
      }
      for (const call of message.toolCalls) {
        throwIfCancelled(signal);
        const { result, outcome } = await this.#runToolCall(snapshot, call, signal);
        outcomes.push(outcome);
        const toolMessage: ToolMessage = {
          role: "tool",
          toolCallId: call.id,
          content: result.content,
        };
        history.push(toolMessage);
      }
    }
    throw new AgentLimitError(maxTurns);
  }

  async #runToolCall(
    snapshot: ToolRegistrySnapshot,
    call: ToolCall,
    signal: AbortSignal | undefined,
  ): Promise<{ result: ToolResult; outcome: ToolOutcome }> {
    const now = this.#options.now ?? Date.now;
    const started = now();
    this.#notify((observer) => observer.onToolCallStart?.(call));
    const effect = snapshot.effectOf(call.name);
    const environment = effect === "execute" ? this.#environmentLabel() : undefined;
    let reported: ExecutionFacts = {};
    const reportExecution = (facts: ExecutionFacts): void => {
      reported = checkedFacts(facts);
    };
    let decided: Decided;
    try {
      decided = await this.#decideAndInvoke(snapshot, call, signal, reportExecution, environment);
    } catch (error) {
      // Waiting for an approval given later (chapter 4): nothing ran; the run stops here.
      if (error instanceof RunWaitingError) {
        const result = toolError("approval_waiting", error.message);
        const facts = {
          result,
          executed: "no",
          status: "waiting",
          boundary: "confirmation",
        } as const;
        const outcome = outcomeOf(call, facts, now() - started, environment, undefined);
        this.#notify((observer) =>
          observer.onToolCallEnd?.(call, result, outcome.durationMs, outcome),
        );
        await this.#recordOutcome(outcome);
        await this.#journal({ type: "run_waiting", callId: error.callId, request: error.request });
      }
      // Ctrl-C at the prompt: nothing ran. The run ends, but the call still has its outcome.
      if (error instanceof RunCancelledError) {
        const facts = {
          result: CANCELLED_BEFORE_RUNNING,
          executed: "no",
          status: "cancelled",
          boundary: "confirmation",
        } as const;
        const outcome = outcomeOf(call, facts, now() - started, environment, undefined);
        this.#notify((observer) =>
          observer.onToolCallEnd?.(call, CANCELLED_BEFORE_RUNNING, outcome.durationMs, outcome),
        );
        await this.#recordOutcome(outcome);
        await journalClosing(this.#options.journal, {
          type: "execution_finished",
          callId: call.id,
          outcome,
          content: CANCELLED_BEFORE_RUNNING.content,
        });
      }
      throw error;
    }
    const durationMs = now() - started;
    const outcome = outcomeOf(call, decided, durationMs, environment, reported);
    await this.#journal({
      type: "execution_finished",
      callId: call.id,
      outcome,
      content: decided.result.content,
    });
    this.#notify((observer) => observer.onToolCallEnd?.(call, decided.result, durationMs, outcome));
    await this.#recordOutcome(outcome);
    return { result: decided.result, outcome };
  }

  /** The action already happened (or not): a log that fails here cannot undo it, so it is ignored. */
  async #recordOutcome(outcome: ToolOutcome): Promise<void> {
    try {
      await this.#options.outcomes?.recordOutcome?.(outcome);
    } catch {
      // Nothing to do: the decision was audited before the call; this record is an addition.
    }
  }

  #environmentLabel(): string | undefined {
    const environment = this.#options.executionEnvironment;
    if (environment === undefined) return undefined;
    try {
      const status: ExecutionEnvironmentStatus = environment.status();
      return environmentLabel(status);
    } catch {
      return undefined;
    }
  }

  /** Observers only display: one that throws (say, on hostile model text) must not end the run. */
  #notify(callback: (observer: AgentObserver) => void): void {
    const observer = this.#options.observer;
    if (observer === undefined) return;
    try {
      callback(observer);
    } catch {
      // Nothing to do: the display is best effort, the decision path is not affected.
    }
  }

  async #decideAndInvoke(
    snapshot: ToolRegistrySnapshot,
    call: ToolCall,
    signal: AbortSignal | undefined,
    reportExecution: (facts: ExecutionFacts) => void,
    environment: string | undefined,
  ): Promise<Decided> {
    const prepared = snapshot.prepare(call);
    if (!prepared.ok) return rejected(prepared.result);
    await this.#journal({
      type: "call_prepared",
      callId: call.id,
      tool: call.name,
      canonicalArguments: canonicalJson(prepared.call.arguments),
    });
    const policy = this.#options.policy;
    if (policy !== undefined) {
      let decision: unknown;
      try {
        decision = await policy.decide(new PermissionRequest(prepared.call));
      } catch (error) {
        // A cancelled prompt (Ctrl-C) ends the run, a wait for a later approval stops it; every
        // other failure denies this call.
        if (error instanceof RunCancelledError || error instanceof RunWaitingError) throw error;
        return EVALUATION_FAILED;
      }
      // Only a genuine decision counts; a policy returning anything else fails closed.
      if (!PermissionDecision.isDecision(decision)) return EVALUATION_FAILED;
      await this.#journal({
        type: "decision",
        callId: call.id,
        behavior: decision.behavior,
        source: decision.source,
        reason: decision.reason,
      });
      if (decision.behavior !== "allow") {
        return decision.behavior === "deny"
          ? denied(decision, policy.boundaryOf(decision))
          : EVALUATION_FAILED;
      }
    }
    throwIfCancelled(signal);
    await this.#journal({
      type: "execution_started",
      callId: call.id,
      tool: call.name,
      ...(environment === undefined ? {} : { environment }),
      ...(prepared.call.finalArguments === undefined
        ? {}
        : { finalArguments: prepared.call.finalArguments }),
    });
    const result = await snapshot.invoke(prepared.call, {
      ...(signal === undefined ? {} : { signal }),
      reportExecution,
    });
    return {
      result,
      ...executionFacts(result, prepared.call.effect),
      ...(prepared.call.finalArguments === undefined
        ? {}
        : { finalArguments: prepared.call.finalArguments }),
    };
  }
}

/** A provider rejecting because the run was aborted is a cancellation, whatever error it threw. */
async function completeOrCancel(model: ModelClient, request: ModelRequest): Promise<ModelReply> {
  try {
    return await model.complete(request);
  } catch (error) {
    throwIfCancelled(request.signal);
    throw error;
  }
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new RunCancelledError();
}
