/**
 * `--output-format json` and `stream-json`: stdout for scripts (docs/output-format.md). `json`
 * prints one object when the run ends, however it ends; `stream-json` prints one JSON line per
 * event as it happens, and the same object last. The person's progress stays on stderr.
 */
import type { AgentObserver } from "../../core/runner/agent-runner.js";
import type { ToolCall } from "../../core/ports/messages.js";
import type { ModelReply, TokenUsage } from "../../core/ports/model.js";
import { addUsage } from "../../core/runner/model-reply-checks.js";
import type { ToolOutcome } from "../../core/tools/tool-outcome.js";
import type { ToolResult } from "../../core/tools/tool-result.js";
import type { WaitingResult } from "../../core/common/tool-execution-result.js";
import type { ComposedRun } from "../../bootstrap.js";
import type { OutputFormat } from "../args.js";
import { EXIT } from "../exit-codes.js";
import { exitCodeOf, runToAnswer } from "./one-shot.js";
import type { RunTerminal } from "./run-terminal.js";

/** How the run ended, as the result object says it. */
export type WaitingCall = WaitingResult & { readonly callId: string };

export type ScriptStatus = "completed" | "all_denied" | "failed" | "cancelled" | "waiting";

export interface ScriptResult {
  readonly type: "result";
  readonly runId: string | null;
  readonly status: ScriptStatus;
  readonly exitCode: number;
  /** The model's final answer; null when the run did not get one. */
  readonly answer: string | null;
  /** For a run that did not answer: its one-line error. */
  readonly error: string | null;
  readonly turns: number;
  readonly calls: readonly ToolOutcome[];
  readonly usage: TokenUsage | null;
  /**
   * A waiting run's request (`agent approve REQUEST_ID`, then `agent resume RUN_ID`): the seed's
   * waiting result (`type`, `requestId`, `reason`) and the call that waits; else null.
   */
  readonly waiting: WaitingCall | null;
}

export class ScriptOutput implements AgentObserver {
  readonly #stdout: NodeJS.WritableStream;
  readonly #streaming: boolean;
  readonly #calls: ToolOutcome[] = [];
  #usage: TokenUsage | undefined;
  #turns = 0;

  constructor(stdout: NodeJS.WritableStream, format: Exclude<OutputFormat, "text">) {
    this.#stdout = stdout;
    this.#streaming = format === "stream-json";
  }

  onModelRequest(turn: number): void {
    this.#turns = turn;
    this.#event({ type: "model_request", turn });
  }

  onModelReply(reply: ModelReply, turn: number): void {
    this.#usage = addUsage(this.#usage, reply.usage);
    this.#event({
      type: "model_reply",
      turn,
      finishReason: reply.finishReason,
      text: reply.message.content,
      toolCalls: reply.message.toolCalls,
      usage: reply.usage ?? null,
    });
  }

  onToolCallStart(call: ToolCall): void {
    this.#event({ type: "tool_call", callId: call.id, tool: call.name, arguments: call.arguments });
  }

  onToolCallEnd(
    call: ToolCall,
    result: ToolResult,
    _durationMs: number,
    outcome: ToolOutcome,
  ): void {
    this.#calls.push(outcome);
    this.#event({
      type: "tool_result",
      callId: call.id,
      tool: call.name,
      outcome,
      content: result.content,
    });
  }

  /** The closing object, last on stdout. */
  finish(ending: {
    readonly runId: string | undefined;
    readonly status: ScriptStatus;
    readonly exitCode: number;
    readonly answer?: string;
    readonly error?: string;
    readonly waiting?: WaitingCall;
  }): void {
    const result: ScriptResult = {
      type: "result",
      runId: ending.runId ?? null,
      status: ending.status,
      exitCode: ending.exitCode,
      answer: ending.answer ?? null,
      error: ending.error ?? null,
      turns: this.#turns,
      calls: [...this.#calls],
      usage: this.#usage ?? null,
      waiting: ending.waiting ?? null,
    };
    this.#stdout.write(`${JSON.stringify(result)}\n`);
  }

  #event(event: Readonly<Record<string, unknown>>): void {
    if (this.#streaming) this.#stdout.write(`${JSON.stringify(event)}\n`);
  }
}

/** Observers side by side: the terminal's progress and the script's events; each shielded. */
export function bothObservers(first: AgentObserver, second: AgentObserver): AgentObserver {
  const each = (call: (observer: AgentObserver) => void): void => {
    for (const observer of [first, second]) {
      try {
        call(observer);
      } catch {
        // Display only: one observer failing must not keep the other from its event.
      }
    }
  };
  return {
    onModelRequest: (turn, maxTurns) => {
      each((observer) => observer.onModelRequest?.(turn, maxTurns));
    },
    onModelReply: (reply, turn) => {
      each((observer) => observer.onModelReply?.(reply, turn));
    },
    onMention: (report) => {
      each((observer) => observer.onMention?.(report));
    },
    onToolCallStart: (call) => {
      each((observer) => observer.onToolCallStart?.(call));
    },
    onToolCallEnd: (call, result, durationMs, outcome, notes) => {
      each((observer) => observer.onToolCallEnd?.(call, result, durationMs, outcome, notes));
    },
    prepare: () => {
      each((observer) => observer.prepare?.());
    },
  };
}

/**
 * The script mode (`--output-format json|stream-json`): one task to its answer, which goes into
 * the closing JSON object, not onto stdout as text. Its observer is `bothObservers(reporter,
 * script)`, chosen once when the run is composed.
 */
export async function scriptOutputMode(
  run: ComposedRun,
  terminal: RunTerminal,
  script: ScriptOutput,
  prompt: string | undefined,
): Promise<number> {
  const result = await runToAnswer(run, terminal, prompt);
  const exitCode = exitCodeOf(result, terminal);
  terminal.reporter.finish(result.turns, result.usage);
  script.finish({
    runId: run.session.runId,
    status: exitCode === EXIT.ok ? "completed" : "all_denied",
    exitCode,
    answer: result.finalText,
  });
  return exitCode;
}
