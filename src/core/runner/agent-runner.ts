import {
  AgentLimitError,
  RunCancelledError,
  RunWaitingError,
  throwIfCancelled,
} from "../common/agent-errors.js";
import type { RunJournal } from "../journal/journal-records.js";
import type { OpenCall } from "../journal/journal-replay.js";
import { stoppedAtConfirmation } from "../journal/interrupted-calls.js";
import type { Message, ToolCall } from "../ports/messages.js";
import { toolMessage, ToolPairingCheck } from "../ports/messages.js";
import type { ModelClient, ModelReply, ModelRequest, TokenUsage } from "../ports/model.js";
import { PermissionDecision } from "../policy/permission-decision.js";
import { PermissionRequest } from "../policy/permission-request.js";
import { PermissionPolicy } from "../policy/permissions.js";
import {
  currentEnvironmentLabel,
  untilDecided,
  type ExecutionEnvironment,
} from "../policy/execution-environment.js";
import type { AuditSink } from "../policy/audit.js";
import type { ExecutionFacts, ToolIdentity } from "../tools/tool-definition.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";
import type { ToolRegistry, ToolRegistrySnapshot } from "../tools/tool-registry.js";
import type { ToolResult } from "../tools/tool-result.js";
import { CallCannotSucceedError, failIfCannotSucceed } from "../tools/call-cannot-succeed.js";
import {
  checkedFacts,
  denied,
  EVALUATION_FAILED,
  executionFacts,
  outcomeOf,
  rejected,
  type Decided,
} from "../journal/call-facts.js";
import { addUsage, checkedReply } from "./model-reply-checks.js";
import { boundedReply, runCallReserve } from "./bounded-reply.js";
import { jsonBytes } from "./journal-text.js";
import { ResultRoom } from "./result-room.js";
import { withOutcomeNote } from "./outcome-note.js";
import { journaledRun } from "../journal/journaled-run.js";
import { RunJournalWriter } from "../journal/run-journal-writer.js";
import { answeredRun, answerOpenCalls, unknownOutcome } from "./resumed-calls.js";
import type { RunResult } from "./run-result.js";
import { ContextKeeper, type CompactionEvent } from "../context/context-keeper.js";
import { describeContext, type ContextReport } from "../context/context-report.js";
import { attachMentions, type MentionReport } from "./mention-attachments.js";

export { PERMISSION_EVALUATION_FAILED } from "../journal/call-facts.js";
export type { RunResult } from "./run-result.js";

/** Hooks for the terminal UI. They observe; they never decide. */
export interface AgentObserver {
  onModelRequest?(turn: number, maxTurns: number): void;
  onModelReply?(reply: ModelReply, turn: number): void;
  onToolCallStart?(call: ToolCall): void;
  /**
   * `notes`: what the sandbox said about a command, for the person, each whole (ExecutionFacts);
   * never to be picked out of the result's text, where the command could have printed the same.
   */
  onToolCallEnd?(
    call: ToolCall,
    result: ToolResult,
    durationMs: number,
    outcome: ToolOutcome,
    notes: readonly string[],
  ): void;
  /** Before each request and after each reply: the tokens the history takes, of the window. */
  onContextUsage?(tokens: number, window: number): void;
  onCompaction?(event: CompactionEvent): void;
  /** One `@path` mention of a message, before it is sent: attached, or not and why. */
  onMention?(report: MentionReport): void;
  /**
   * Once, while the model is slow to answer (`prepareTools`): build what showing a call needs
   * (patterns, say), so that the first call does not pay for it. Shows nothing.
   */
  prepare?(): void;
}

export interface AgentRunnerOptions {
  readonly model: ModelClient;
  readonly registry: ToolRegistry;
  /**
   * Decides every call (and every `@path` mention's read) before it runs. Required: a runner has
   * no default that allows, so one built without a policy does not compile, and is refused at
   * construction where the type was got round, rather than run every call unasked. Bootstrap
   * always builds one (chapters 1 and 2 too, where a question nobody can answer is a denial).
   */
  readonly policy: PermissionPolicy;
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
  /** The model's context window in tokens: the history is compacted to stay inside it. */
  readonly contextWindow?: number;
  /**
   * The model reads, after a failed call's own error text, whether it executed and, for a
   * denial, its source and scope (`outcome-note.ts`). P04 only: chapters 1–3 keep the
   * tutorial's exact messages.
   */
  readonly tellOutcomes?: boolean;
  /** Given to every handler (`ToolContext.workspace`): the workspace's real path. */
  readonly workspace?: string;
  /** Given to every handler (`ToolContext.identity`): whom the run acts for. */
  readonly identity?: ToolIdentity;
  /** Reserves each call's external operation id (seed 004); default a random `op_` UUID. */
  readonly newOperationId?: () => string;
}

/** What `#decideAndInvoke` tells `#runToolCall` on the way, besides the decision itself. */
interface CallReports {
  readonly reportExecution: (facts: ExecutionFacts) => void;
  /** How long the call waited for the person's answer. */
  readonly reportWait: (ms: number) => void;
  readonly now: () => number;
}

/** The loop: ask the model, run each tool call through prepare → policy → invoke, repeat. */
export class AgentRunner {
  readonly #options: AgentRunnerOptions;
  readonly #journal: RunJournalWriter;
  readonly #context: ContextKeeper | undefined;
  /** The history's pairing, checked turn by turn: each check reads only the new messages. */
  readonly #pairing = new ToolPairingCheck();
  /** What the results of the calls now running may take of the journal; set before they run. */
  #results: ResultRoom | undefined;

  constructor(options: AgentRunnerOptions) {
    if (!Number.isInteger(options.maxTurns) || options.maxTurns < 1) {
      throw new RangeError("maxTurns must be a positive integer");
    }
    // The type requires it; a caller that got round the type (plain JavaScript, a cast) is refused
    // here, before any call could reach a runner with nothing to decide it.
    if (!((options.policy as unknown) instanceof PermissionPolicy)) {
      throw new TypeError("AgentRunner needs a PermissionPolicy: no call runs undecided");
    }
    this.#options = options;
    this.#journal = new RunJournalWriter(options.journal);
    this.#context =
      options.contextWindow === undefined
        ? undefined
        : new ContextKeeper({
            model: options.model,
            window: options.contextWindow,
            record: (messages, reason) => this.#journal.historyCompacted(messages, reason),
            onUsage: (tokens, window) => {
              this.#notify((observer) => observer.onContextUsage?.(tokens, window));
            },
            onCompaction: (event) => {
              this.#notify((observer) => observer.onCompaction?.(event));
            },
          });
  }

  /**
   * Builds what the tools' first calls need, while nothing else runs: their argument schemas
   * (zod), the default operation ids' generator (webcrypto, which node loads at first use) and
   * what the observers show a call with. None of it has an effect outside this process's memory.
   */
  prepareTools(): void {
    this.#options.registry.prepareSchemas();
    if (this.#options.newOperationId === undefined) randomOperationId();
    this.#notify((observer) => observer.prepare?.());
  }

  /**
   * The model's window changed (a `/model` switch): compaction and the context report measure
   * against it from the next request on. Nothing to do for a run that keeps no window.
   */
  setContextWindow(tokens: number): void {
    if (this.#context !== undefined) this.#context.window = tokens;
  }

  /** `/compact`: the history with its older part summarized (unchanged when that cannot be done). */
  async compactHistory(
    history: readonly Message[],
    signal?: AbortSignal,
  ): Promise<readonly Message[]> {
    if (this.#context === undefined) return history;
    const compacted = [...history];
    const tools = this.#options.registry.snapshot().openAITools();
    const done = await this.#context.compact(compacted, "command", signal, tools);
    return done ? compacted : history;
  }

  /** `/clear`: a new history in the same session; only the system message stays. */
  async clearHistory(history: readonly Message[]): Promise<readonly Message[]> {
    const cleared = history[0]?.role === "system" ? [history[0]] : [];
    await this.#journal.historyCompacted(cleared, "clear");
    return cleared;
  }

  /**
   * `/context`: what the window holds, by kind, in tokens; its total is the sum of its rows, the
   * same estimate a compaction's figures use, so the two always agree.
   */
  describeContext(history: readonly Message[]): ContextReport {
    const tools = this.#options.registry.snapshot().openAITools();
    const keeper = this.#context;
    return describeContext(history, tools, keeper === undefined ? {} : { window: keeper.window });
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
    return journaledRun(this.#journal, history, async () => {
      // The files a message mentions are read once, here, and journaled as part of it.
      const message = await this.#withMentions(prompt, signal);
      await this.#journal.turnStarted(message, systemPrompt);
      if (previous === undefined && systemPrompt !== undefined) {
        history.push({ role: "system", content: systemPrompt });
      }
      history.push({ role: "user", content: message });
      return this.#loop(history, signal, []);
    });
  }

  /** The person's text with the files its `@path` mentions attached (mention-attachments.ts). */
  async #withMentions(text: string, signal: AbortSignal | undefined): Promise<string> {
    const { workspace, policy } = this.#options;
    const attached = await attachMentions(text, {
      snapshot: this.#options.registry.snapshot(),
      policy: policy.withoutApprover(),
      ...(workspace === undefined ? {} : { workspace }),
      ...(signal === undefined ? {} : { signal }),
      newCallId: () => `mention_${globalThis.crypto.randomUUID().slice(0, 8)}`,
      onReport: (report) => {
        this.#notify((observer) => observer.onMention?.(report));
      },
    });
    return attached.content;
  }

  /** Goes on with a run rebuilt from its journal (`agent resume`); see resumed-calls.ts. */
  async resume(
    history: readonly Message[],
    openCalls: readonly OpenCall[],
    signal?: AbortSignal,
  ): Promise<RunResult> {
    const resumed: Message[] = [...history];
    return journaledRun(this.#journal, resumed, async () => {
      await this.#journal.resumed();
      const answered = answeredRun(resumed);
      if (answered !== undefined) return answered;
      const snapshot = this.#options.registry.snapshot();
      const toAnswer = openCalls.filter((open) => open.state !== "finished");
      this.#results = new ResultRoom(
        this.#journal.spaceLeft(),
        new Map(toAnswer.map((open) => [open.call.id, runCallReserve(open.call)])),
      );
      const outcomes = await answerOpenCalls(
        openCalls,
        resumed,
        {
          reportUnknown: (call, result) => this.#reportUnknown(call, result),
          run: (call) => this.#runToolCall(snapshot, call, signal),
        },
        signal,
      );
      return this.#loop(resumed, signal, outcomes);
    });
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
      this.#pairing.check(history);
      const snapshot = registry.snapshot();
      this.#notify((observer) => observer.onModelRequest?.(turn, maxTurns));
      const tools = snapshot.openAITools();
      const send = (messages: readonly Message[]): Promise<ModelReply> =>
        completeOrCancel(model, { messages, tools, ...(signal === undefined ? {} : { signal }) });
      const reply =
        this.#context === undefined
          ? await send([...history])
          : await this.#context.complete(history, tools, signal, send);
      this.#notify((observer) => observer.onModelReply?.(reply, turn));
      usage = addUsage(usage, reply.usage);
      // Bounded before it is journaled: a reply too large to keep must not stop the run.
      const { message, refused, reserves } = boundedReply(
        checkedReply(reply, this.#pairing.usedCallIds(history)),
        this.#journal.spaceLeft(),
      );
      await this.#journal.modelReply(message, reply.usage);
      this.#results = new ResultRoom(this.#journal.spaceLeft(), reserves);
      history.push(message);
      this.#context?.counted(history, reply);

      if (message.toolCalls.length === 0) {
        return { finalText: message.content ?? "", turns: turn, history, usage, outcomes };
      }
      for (const call of message.toolCalls) {
        throwIfCancelled(signal);
        const tooLarge = refused.get(call.id);
        const { result, outcome } = await this.#runToolCall(snapshot, call, signal, tooLarge);
        outcomes.push(outcome);
        history.push(toolMessage(result.content, call.id));
      }
    }
    throw new AgentLimitError(maxTurns);
  }

  /** One call, start to end: every way it ends has an outcome, and a result paired with its id. */
  async #runToolCall(
    snapshot: ToolRegistrySnapshot,
    call: ToolCall,
    signal: AbortSignal | undefined,
    /** Set when the call was refused for its size or number (bounded-reply.ts): never prepared. */
    tooLarge?: ToolResult,
  ): Promise<{ result: ToolResult; outcome: ToolOutcome }> {
    const effect = snapshot.effectOf(call.name);
    // A command is decided on the final environment: it waits for the sandbox check here, before
    // the call starts; no other call ever waits for it.
    if (effect === "execute") {
      await untilDecided(this.#options.executionEnvironment, signal);
      throwIfCancelled(signal);
    }
    const now = this.#options.now ?? Date.now;
    const started = now();
    this.#notify((observer) => observer.onToolCallStart?.(call));
    const environment =
      effect === "execute"
        ? currentEnvironmentLabel(this.#options.executionEnvironment)
        : undefined;
    let reported: ExecutionFacts = {};
    const reportExecution = (facts: ExecutionFacts): void => {
      reported = checkedFacts(facts);
    };
    // The person's time at the prompt is theirs, not the call's: kept apart as `waitedMs`, so the
    // ✓ line, the audit log and the journal say how long the call itself took.
    let waitedMs: number | undefined;
    const reportWait = (ms: number): void => {
      waitedMs = ms;
    };
    const took = (): number => now() - started - (waitedMs ?? 0);
    let decided: Decided;
    try {
      decided =
        tooLarge === undefined
          ? await this.#decideAndInvoke(snapshot, call, signal, environment, {
              reportExecution,
              reportWait,
              now,
            })
          : rejected(tooLarge);
    } catch (error) {
      // Stopped at its confirmation (Ctrl-C, or a wait for a later approval): nothing ran and the
      // run ends here, but the call still gets its outcome, and the journal says why it stopped.
      const stopped = stoppedAtConfirmation(error);
      if (stopped !== undefined) {
        const outcome = outcomeOf(call, stopped, { durationMs: took(), waitedMs }, environment);
        this.#notify((observer) =>
          observer.onToolCallEnd?.(call, stopped.result, outcome.durationMs, outcome, []),
        );
        await this.#recordOutcome(outcome);
        await (error instanceof RunWaitingError
          ? this.#journal.waiting(error)
          : this.#journal.cancelledCall(call, outcome, stopped.result.content));
      }
      throw error;
    }
    const outcome = outcomeOf(
      call,
      decided,
      { durationMs: took(), waitedMs },
      environment,
      reported,
    );
    const result = this.#told(this.#fitted(call, decided.result, outcome), outcome);
    await this.#finishCall(call, result, outcome, {
      changesNothing: snapshot.changesNothing(call.name),
      notes: reported.notes ?? [],
    });
    return { result, outcome };
  }

  /** The result cut to what the journal can keep (result-room.ts), with room for the outcome note. */
  #fitted(call: ToolCall, result: ToolResult, outcome: ToolOutcome): ToolResult {
    const room = this.#results;
    if (room === undefined) return result;
    const note = jsonBytes(this.#told(Object.freeze({ ...result, content: "" }), outcome).content);
    const content = room.fit(call, outcome, result.content, this.#journal.spaceLeft(), note);
    return content === result.content ? result : Object.freeze({ ...result, content });
  }

  /**
   * prepare (lookup, JSON, strict schema) → policy (workspace boundary, rules, merge; before an
   * approver is asked, the tool's precheck: a call that cannot succeed; approval, audit: only an
   * explicit allow passes) → invoke. Each step is journaled before it happens.
   */
  async #decideAndInvoke(
    snapshot: ToolRegistrySnapshot,
    call: ToolCall,
    signal: AbortSignal | undefined,
    environment: string | undefined,
    report: CallReports,
  ): Promise<Decided> {
    const prepared = snapshot.prepare(call);
    if (!prepared.ok) return rejected(prepared.result);
    await this.#journal.callPrepared(call, prepared.call);
    const policy = this.#options.policy;
    // Rules decide at once; a person (or an approver standing in for one) takes their time. Only
    // a call whose question reached a person has a wait: a piped or script run's denial has none.
    const person = { asked: false };
    let decision: unknown;
    const asked = report.now();
    const request = new PermissionRequest(
      prepared.call,
      {},
      {
        onAsking: () => (person.asked = true),
        // A call that cannot succeed fails before a person is asked to approve it in vain.
        beforeAsking: () => failIfCannotSucceed(snapshot, prepared.call),
      },
    );
    const reportPersonWait = (): void => {
      if (person.asked) report.reportWait(report.now() - asked);
    };
    try {
      decision = await policy.decide(request);
    } catch (error) {
      // A cancelled prompt (Ctrl-C) ends the run, a wait for a later approval stops it; every
      // other failure denies this call.
      if (error instanceof RunCancelledError || error instanceof RunWaitingError) {
        reportPersonWait();
        throw error;
      }
      if (error instanceof CallCannotSucceedError) return rejected(error.result);
      return EVALUATION_FAILED;
    }
    // Only a genuine decision counts; a policy returning anything else fails closed.
    if (!PermissionDecision.isDecision(decision)) return EVALUATION_FAILED;
    reportPersonWait();
    await this.#journal.decision(call, prepared.call, decision);
    if (decision.behavior !== "allow") {
      return decision.behavior === "deny"
        ? denied(decision, policy.boundaryOf(decision))
        : EVALUATION_FAILED;
    }
    throwIfCancelled(signal);
    const operationId = (this.#options.newOperationId ?? randomOperationId)();
    await this.#journal.executionStarted(call, prepared.call, environment, operationId);
    // The process's record is written once it exists, and awaited before the call's end.
    let processRecorded: Promise<void> = Promise.resolve();
    const { workspace, identity } = this.#options;
    const recording = prepared.call.beforeImages ? this.#journal.writeRecorder(call) : undefined;
    const result = await snapshot.invoke(prepared.call, {
      ...(recording === undefined ? {} : { recordWrite: recording.recorder }),
      ...(signal === undefined ? {} : { signal }),
      ...(workspace === undefined ? {} : { workspace }),
      ...(identity === undefined ? {} : { identity }),
      // Reached only on an explicit allow: a person who was asked approved it.
      ...(person.asked ? { personApproved: true } : {}),
      idempotencyKey: operationId,
      reportExecution: report.reportExecution,
      reportProcess: (pid) => {
        processRecorded = this.#journal.processStarted(call, operationId, pid);
      },
    });
    await processRecorded;
    // A write's record that failed stops the run, as any step's does: the call stays started.
    recording?.throwIfFailed();
    return {
      result,
      ...executionFacts(result, prepared.call.effect),
      ...(prepared.call.finalArguments === undefined
        ? {}
        : { finalArguments: prepared.call.finalArguments }),
    };
  }

  /** A call that started before the process died: its effect is unknown, and the person is told. */
  async #reportUnknown(call: ToolCall, result: ToolResult): Promise<ToolOutcome> {
    this.#notify((observer) => observer.onToolCallStart?.(call));
    const outcome = unknownOutcome(call, result);
    await this.#finishCall(call, result, outcome);
    return outcome;
  }

  /** What the model reads of a result: in P04 with the outcome's note. */
  #told(result: ToolResult, outcome: ToolOutcome): ToolResult {
    return this.#options.tellOutcomes === true ? withOutcomeNote(result, outcome) : result;
  }

  /** The call's end is journaled first: the display and the outcome log come after. */
  async #finishCall(
    call: ToolCall,
    result: ToolResult,
    outcome: ToolOutcome,
    {
      changesNothing = false,
      notes = [],
    }: { changesNothing?: boolean; notes?: readonly string[] } = {},
  ): Promise<void> {
    await this.#journal.executionFinished(call, outcome, result.content, changesNothing);
    this.#notify((observer) =>
      observer.onToolCallEnd?.(call, result, outcome.durationMs, outcome, notes),
    );
    await this.#recordOutcome(outcome);
  }

  /** The action already happened (or not): a log that fails here cannot undo it, so it is ignored. */
  async #recordOutcome(outcome: ToolOutcome): Promise<void> {
    try {
      await this.#options.outcomes?.recordOutcome?.(outcome);
    } catch {
      // Nothing to do: the decision was audited before the call; this record is an addition.
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
}

function randomOperationId(): string {
  return `op_${globalThis.crypto.randomUUID()}`;
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
