import { ModelProviderError, RunCancelledError } from "../../core/common/agent-errors.js";
import type { Message } from "../../core/ports/messages.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../core/ports/model.js";
import { ModelConfigError } from "./model-config-error.js";
import { canonicalJson } from "../../core/common/canonical-json.js";
import { recordedExchangeSchema, type RecordedExchange } from "./model-recording-format.js";
import { errorMessage, oneLine } from "../../core/common/one-line.js";
import { readHarnessInput } from "../filesystem/index.js";

/** A replay file is read whole; anything larger is refused before it can fill memory. */
export const REPLAY_LIMIT_BYTES = 64 * 1024 * 1024;

const SNIPPET_LENGTH = 120;
const CONTEXT_BEFORE_DIFFERENCE = 30;

export interface ReplayOptions {
  /**
   * Lenient replay still checks every message's role, text the model or person wrote, and tool call
   * ids and names, but not the system prompt (it names this machine's shell) nor tool results (they
   * depend on the person's answers and this machine). For demos, where you answer the prompts.
   */
  readonly lenient?: boolean;
}

/**
 * `--replay FILE`: serves recorded replies in order, with no network and no key. Each request must
 * match its recording (messages and tool names, compared as canonical JSON), so a change in the
 * harness that alters the conversation fails loudly instead of replaying answers to other questions.
 */
export class ReplayModelClient implements ModelClient {
  readonly #exchanges: readonly RecordedExchange[];
  readonly #lenient: boolean;
  #next = 0;

  constructor(exchanges: readonly RecordedExchange[], options: ReplayOptions = {}) {
    this.#exchanges = structuredClone([...exchanges]);
    this.#lenient = options.lenient ?? false;
  }

  /**
   * Reads and validates a `--record` file; any problem is a ModelConfigError naming the line. Only
   * a regular file up to REPLAY_LIMIT_BYTES is read, never through a symbolic link (a FIFO or
   * `/dev/zero` is refused at once instead of blocking or filling memory).
   */
  static fromFile(path: string, options: ReplayOptions = {}): ReplayModelClient {
    let text: string;
    try {
      text = readHarnessInput(path, REPLAY_LIMIT_BYTES);
    } catch (error) {
      const reason = errorMessage(error);
      throw new ModelConfigError(oneLine(`Cannot read the replay file ${path}: ${reason}`));
    }
    return ReplayModelClient.fromJsonl(text, `Replay file ${path}`, options);
  }

  static fromJsonl(
    text: string,
    source = "Replay file",
    options: ReplayOptions = {},
  ): ReplayModelClient {
    const exchanges: RecordedExchange[] = [];
    for (const [index, line] of text.split("\n").entries()) {
      if (line.trim() === "") continue;
      exchanges.push(parseLine(line, `${source} line ${index + 1}`));
    }
    if (exchanges.length === 0) throw new ModelConfigError(`${source} holds no exchanges`);
    return new ReplayModelClient(exchanges, options);
  }

  /** Recorded replies not served yet. */
  get remaining(): number {
    return this.#exchanges.length - this.#next;
  }

  complete(request: ModelRequest): Promise<ModelReply> {
    if (request.signal?.aborted === true) return Promise.reject(new RunCancelledError());
    const number = this.#next + 1;
    const exchange = this.#exchanges[this.#next];
    if (exchange === undefined) {
      return Promise.reject(
        new ModelProviderError(
          `Replay ran out of replies: request ${number} has no recording (the file holds ${this.#exchanges.length})`,
        ),
      );
    }
    const divergence = describeDivergence(exchange, request, this.#lenient);
    if (divergence !== undefined) {
      return Promise.reject(
        new ModelProviderError(
          oneLine(`Replay diverged at exchange ${number}: ${divergence}`, 600),
        ),
      );
    }
    this.#next += 1;
    const reply = structuredClone(exchange.reply);
    // Shown like a reply from a server that does not stream: the whole text in one piece.
    const text = reply.message.content;
    if (text !== null && text !== "") request.onTextDelta?.(text);
    return Promise.resolve(reply);
  }
}

function parseLine(line: string, where: string): RecordedExchange {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new ModelConfigError(`${where}: not valid JSON`);
  }
  const checked = recordedExchangeSchema().safeParse(json);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path =
      issue === undefined || issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".");
    throw new ModelConfigError(oneLine(`${where}: ${path}: ${issue?.message ?? "invalid"}`));
  }
  return checked.data;
}

function describeDivergence(
  exchange: RecordedExchange,
  request: ModelRequest,
  lenient: boolean,
): string | undefined {
  const recordedTools = canonicalJson(exchange.request.tools.map((tool) => tool.name));
  const requestedTools = canonicalJson(request.tools.map((tool) => tool.name));
  if (recordedTools !== requestedTools) {
    return `tools differ (recorded ${recordedTools}, requested ${requestedTools})`;
  }
  const compared = (message: Message): Message =>
    lenient ? withoutVariableText(message) : message;
  const recorded = exchange.request.messages.map(compared);
  const requested = request.messages.map(compared);
  for (let index = 0; index < Math.max(recorded.length, requested.length); index += 1) {
    const was = recorded[index] === undefined ? undefined : canonicalJson(recorded[index]);
    const is = requested[index] === undefined ? undefined : canonicalJson(requested[index]);
    if (was !== is) {
      const from = Math.max(0, firstDifference(was ?? "", is ?? "") - CONTEXT_BEFORE_DIFFERENCE);
      return `message ${index} differs (recorded ${snippet(was, from)}, requested ${snippet(is, from)})`;
    }
  }
  return undefined;
}

function withoutVariableText(message: Message): Message {
  switch (message.role) {
    case "system":
    case "tool":
      return { ...message, content: "" };
    case "user":
    case "assistant":
      return message;
  }
}

function firstDifference(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index += 1;
  return index;
}

/** Starts a little before the first difference, so a change deep in a long tool result shows. */
function snippet(json: string | undefined, from: number): string {
  if (json === undefined) return "nothing";
  const head = from === 0 ? "" : "…";
  const body = json.slice(from, from + SNIPPET_LENGTH);
  const tail = from + SNIPPET_LENGTH < json.length ? "…" : "";
  return `${head}${body}${tail}`;
}
