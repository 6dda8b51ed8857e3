/**
 * Keeps a run's history inside the model's context window. Before each request it measures the
 * history (context-meter.ts); past COMPACT_AT of the window it compacts (compaction.ts) with a
 * summary the model writes (summary-request.ts). A provider that still refuses the request as too
 * long gets one more, tighter compaction and one retry, never a loop. Each compaction is journaled
 * before the history changes, so `agent resume` rebuilds the same history.
 */
import { errorMessage } from "../common/one-line.js";
import type { Message } from "../ports/messages.js";
import type { ModelClient, ModelReply, ModelToolSpec } from "../ports/model.js";
import { RunCancelledError, throwIfCancelled } from "../common/agent-errors.js";
import { COMPACT_AT, estimateMessagesTokens, estimateToolsTokens } from "./context-budget.js";
import { ContextStillTooLargeError, ContextWindowExceededError } from "./context-errors.js";
import { ContextMeter } from "./context-meter.js";
import { compactedHistory, planCompaction } from "./compaction.js";
import { requestSummary } from "./summary-request.js";

/** Why the history was replaced: a journal record's `reason`. */
export type CompactionReason = "auto" | "context_error" | "command" | "clear";

export type CompactionEvent =
  | {
      readonly kind: "compacted";
      readonly reason: CompactionReason;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
    }
  /** The summary request failed or came back empty: the run goes on uncompacted. */
  | { readonly kind: "summary_failed"; readonly cause: string }
  /** Nothing older than the kept turns: there is nothing to summarize. */
  | { readonly kind: "nothing_to_compact"; readonly reason: CompactionReason }
  /**
   * The summary (or the note that holds it, whatever it says) is no smaller than the turns it
   * would replace: the history stays as it is, at `tokens`.
   */
  | { readonly kind: "not_smaller"; readonly reason: CompactionReason; readonly tokens: number };

export interface ContextKeeperOptions {
  readonly model: ModelClient;
  /** The window in tokens. */
  readonly window: number;
  /** Journals the new history before it replaces the old one (durable, or it throws). */
  readonly record: (messages: readonly Message[], reason: CompactionReason) => Promise<void>;
  readonly onUsage?: (tokens: number, window: number) => void;
  readonly onCompaction?: (event: CompactionEvent) => void;
}

/** Share of the window kept verbatim: a compaction before the limit, and one after a refusal. */
const KEEP_SHARE: Readonly<Record<Exclude<CompactionReason, "clear">, number>> = {
  auto: 0.3,
  command: 0.3,
  context_error: 0.15,
};
/** Share of the window the summary request's transcript may take. */
const SUMMARY_INPUT_SHARE = 0.5;

export class ContextKeeper {
  readonly #options: ContextKeeperOptions;
  readonly #meter = new ContextMeter();
  #window: number;
  /** A summary failed once: say it once, and stop asking before each request. */
  #summaryFailed = false;

  constructor(options: ContextKeeperOptions) {
    this.#options = options;
    this.#window = positiveWindow(options.window);
  }

  get window(): number {
    return this.#window;
  }

  /** Another model's window (a `/model` switch): the next request is measured against it. */
  set window(tokens: number) {
    this.#window = positiveWindow(tokens);
  }

  /**
   * The estimate of a request with this history, message by message: what `/context` lists and
   * what a compaction's figures compare (the provider's count covers no single message).
   */
  estimate(history: readonly Message[], tools: readonly ModelToolSpec[] = []): number {
    return estimateMessagesTokens(history) + estimateToolsTokens(tools);
  }

  /** The tokens a request with this history would take. */
  measure(history: readonly Message[], tools: readonly ModelToolSpec[] = []): number {
    return this.#meter.measure(history, tools);
  }

  /**
   * One model request for `history` (changed in place by a compaction), compacting first when it
   * would pass the threshold, and once more with one retry when the provider refuses it as too long.
   */
  async complete(
    history: Message[],
    tools: readonly ModelToolSpec[],
    signal: AbortSignal | undefined,
    send: (messages: readonly Message[]) => Promise<ModelReply>,
  ): Promise<ModelReply> {
    const window = this.#window;
    const tokens = this.measure(history, tools);
    if (tokens > window * COMPACT_AT && !this.#summaryFailed) {
      await this.compact(history, "auto", signal, tools);
    }
    this.#report(history, tools);
    let reply: ModelReply;
    try {
      reply = await send([...history]);
    } catch (error) {
      if (!(error instanceof ContextWindowExceededError)) throw error;
      if (!(await this.compact(history, "context_error", signal, tools))) {
        throw new ContextStillTooLargeError(window, error.message);
      }
      this.#report(history, tools);
      try {
        reply = await send([...history]);
      } catch (retryError) {
        if (retryError instanceof ContextWindowExceededError) {
          throw new ContextStillTooLargeError(window, retryError.message);
        }
        throw retryError;
      }
    }
    return reply;
  }

  /** After the reply is on the history: the provider's count of what it saw. */
  counted(history: readonly Message[], reply: ModelReply): void {
    this.#meter.counted(history, reply.usage);
    this.#report(history, []);
  }

  /**
   * Replaces the older part of `history` (in place) with a summary; `false` when there was nothing
   * to summarize, when the result would be no smaller, or when the summary failed (the history is
   * then unchanged, and the person told).
   */
  async compact(
    history: Message[],
    reason: Exclude<CompactionReason, "clear">,
    signal: AbortSignal | undefined,
    tools: readonly ModelToolSpec[] = [],
  ): Promise<boolean> {
    const before = this.estimate(history, tools);
    // Before the limit, the window is the measure. Asked for, or refused by a provider whose
    // window is smaller than the harness was told, the conversation's own size (after the
    // system message) is.
    const basis =
      reason === "auto"
        ? this.#window
        : Math.min(
            this.#window,
            estimateMessagesTokens(history.filter((message) => message.role !== "system")),
          );
    const plan = planCompaction(history, Math.floor(basis * KEEP_SHARE[reason]));
    if (plan === undefined) {
      this.#notify({ kind: "nothing_to_compact", reason });
      return false;
    }
    // The summary's note is at least its heading: when that alone leaves the history no smaller,
    // no summary can, and the model is not asked for one.
    if (this.estimate(compactedHistory(plan, ""), tools) >= before) {
      return this.#notSmaller(reason, before);
    }
    let summary: string;
    try {
      summary = await requestSummary(
        this.#options.model,
        plan.older,
        Math.floor(basis * SUMMARY_INPUT_SHARE),
        signal,
      );
    } catch (error) {
      throwIfCancelled(signal);
      if (error instanceof RunCancelledError) throw error;
      return this.#summaryFailedWith(errorMessage(error));
    }
    if (summary === "") return this.#summaryFailedWith("the model wrote no summary");
    const compacted = compactedHistory(plan, summary);
    if (this.estimate(compacted, tools) >= before) return this.#notSmaller(reason, before);
    await this.#options.record(compacted, reason);
    history.splice(0, history.length, ...compacted);
    this.#notify({
      kind: "compacted",
      reason,
      tokensBefore: before,
      tokensAfter: this.estimate(history, tools),
    });
    this.#summaryFailed = false;
    return true;
  }

  #notSmaller(reason: Exclude<CompactionReason, "clear">, tokens: number): false {
    this.#notify({ kind: "not_smaller", reason, tokens });
    return false;
  }

  #summaryFailedWith(cause: string): false {
    if (!this.#summaryFailed) this.#notify({ kind: "summary_failed", cause });
    this.#summaryFailed = true;
    return false;
  }

  #report(history: readonly Message[], tools: readonly ModelToolSpec[]): void {
    this.#options.onUsage?.(this.measure(history, tools), this.#window);
  }

  #notify(event: CompactionEvent): void {
    this.#options.onCompaction?.(event);
  }
}

function positiveWindow(tokens: number): number {
  if (!Number.isInteger(tokens) || tokens < 1) {
    throw new RangeError("the context window must be a positive number of tokens");
  }
  return tokens;
}
