import {
  AgentLimitError,
  IncompleteModelReplyError,
  ModelProviderError,
  RunCancelledError,
} from "./agent-errors.js";
import type { AssistantMessage, Message, ToolCall, ToolMessage } from "./messages.js";
import { validateToolPairing } from "./messages.js";
import type { ModelClient, ModelReply, ModelRequest, TokenUsage } from "./model.js";
import { PermissionDecision } from "./permission-decision.js";
import { PermissionRequest } from "./permission-request.js";
import type { PermissionPolicy } from "./permissions.js";
import type { ToolRegistry, ToolRegistrySnapshot } from "./tool-registry.js";
import { toolError, type ToolResult } from "./tool-result.js";

/** Hooks for the terminal UI. They observe; they never decide. */
export interface AgentObserver {
  onModelRequest?(turn: number, maxTurns: number): void;
  onModelReply?(reply: ModelReply, turn: number): void;
  onToolCallStart?(call: ToolCall): void;
  onToolCallEnd?(call: ToolCall, result: ToolResult, durationMs: number): void;
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
}

export interface RunResult {
  readonly finalText: string;
  readonly turns: number;
  readonly history: readonly Message[];
  readonly usage: TokenUsage | undefined;
}

export const PERMISSION_EVALUATION_FAILED = toolError(
  "permission_evaluation_error",
  "Permission evaluation failed",
);

/** The loop: ask the model, run each tool call through prepare → policy → invoke, repeat. */
export class AgentRunner {
  readonly #options: AgentRunnerOptions;

  constructor(options: AgentRunnerOptions) {
    if (!Number.isInteger(options.maxTurns) || options.maxTurns < 1) {
      throw new RangeError("maxTurns must be a positive integer");
    }
    this.#options = options;
  }

  /** `previous`: the history of an earlier run to go on from (a conversation's next turn). */
  async run(
    prompt: string,
    signal?: AbortSignal,
    previous?: readonly Message[],
  ): Promise<RunResult> {
    const { model, registry, maxTurns, systemPrompt } = this.#options;
    const history: Message[] = previous === undefined ? [] : [...previous];
    if (previous === undefined && systemPrompt !== undefined) {
      history.push({ role: "system", content: systemPrompt });
    }
    history.push({ role: "user", content: prompt });
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
      history.push(message);

      if (message.toolCalls.length === 0) {
        return { finalText: message.content ?? "", turns: turn, history, usage };
      }
      for (const call of message.toolCalls) {
        throwIfCancelled(signal);
        const result = await this.#runToolCall(snapshot, call, signal);
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
  ): Promise<ToolResult> {
    const now = this.#options.now ?? Date.now;
    const started = now();
    this.#notify((observer) => observer.onToolCallStart?.(call));
    const result = await this.#decideAndInvoke(snapshot, call, signal);
    this.#notify((observer) => observer.onToolCallEnd?.(call, result, now() - started));
    return result;
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
  ): Promise<ToolResult> {
    const prepared = snapshot.prepare(call);
    if (!prepared.ok) return prepared.result;
    const policy = this.#options.policy;
    if (policy !== undefined) {
      let decision: unknown;
      try {
        decision = await policy.decide(new PermissionRequest(prepared.call));
      } catch (error) {
        // A cancelled prompt (Ctrl-C) ends the run; every other failure denies this call.
        if (error instanceof RunCancelledError) throw error;
        return PERMISSION_EVALUATION_FAILED;
      }
      // Only a genuine decision counts; a policy returning anything else fails closed.
      if (!PermissionDecision.isDecision(decision)) return PERMISSION_EVALUATION_FAILED;
      if (decision.behavior !== "allow") {
        return decision.behavior === "deny"
          ? decision.toToolResult()
          : PERMISSION_EVALUATION_FAILED;
      }
    }
    throwIfCancelled(signal);
    return snapshot.invoke(prepared.call, signal === undefined ? {} : { signal });
  }
}

function checkedReply(reply: ModelReply, history: readonly Message[]): AssistantMessage {
  const { message, finishReason } = reply;
  if (finishReason === "length") {
    throw new IncompleteModelReplyError("The model's reply was cut off at its token limit");
  }
  if (finishReason === "content_filter") {
    throw new IncompleteModelReplyError("The model's reply was withheld by a content filter");
  }
  const hasText = message.content !== null && message.content.trim() !== "";
  if (!hasText && message.toolCalls.length === 0) {
    throw new IncompleteModelReplyError("The model replied with neither text nor tool calls");
  }
  assertFreshCallIds(message.toolCalls, history);
  return { role: "assistant", content: message.content, toolCalls: [...message.toolCalls] };
}

/**
 * Every call id must be new to the conversation before anything runs: a reused id (some servers
 * number calls per reply) would pair a result with the wrong call, and the provider would reject
 * the next request only after the call had already run.
 */
function assertFreshCallIds(calls: readonly ToolCall[], history: readonly Message[]): void {
  const used = new Set(
    history.flatMap((message) =>
      message.role === "assistant" ? message.toolCalls.map((call) => call.id) : [],
    ),
  );
  for (const call of calls) {
    if (call.id === "") {
      throw new ModelProviderError("Malformed model reply: a tool call has an empty id");
    }
    if (used.has(call.id)) {
      throw new ModelProviderError(
        `Malformed model reply: tool call id ${JSON.stringify(call.id)} was already used in this conversation`,
      );
    }
    used.add(call.id);
  }
}

function addUsage(
  total: TokenUsage | undefined,
  turn: TokenUsage | undefined,
): TokenUsage | undefined {
  if (turn === undefined) return total;
  if (total === undefined) return turn;
  return {
    promptTokens: total.promptTokens + turn.promptTokens,
    completionTokens: total.completionTokens + turn.completionTokens,
    totalTokens: total.totalTokens + turn.totalTokens,
  };
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
