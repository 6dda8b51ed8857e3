import { createInterface } from "node:readline";
import { AgentRunError, RunCancelledError } from "../../core/runner/agent-errors.js";
import type { RunResult } from "../../core/runner/agent-runner.js";
import type { Message } from "../../core/ports/messages.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import type { TerminalInput } from "./terminal-approval.js";
import { escapeForPrompt } from "./terminal-text.js";
import {
  CONTEXT_COMMANDS_HELP,
  isContextCommand,
  runContextCommand,
  type ContextCommands,
} from "./context-commands.js";

/** The run's cancellation, one turn at a time: Ctrl-C stops the turn, not the conversation. */
export class TurnCancellation {
  #controller = new AbortController();

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  abort(): void {
    this.#controller.abort();
  }

  /** A fresh signal for the next turn. */
  next(): void {
    if (this.#controller.signal.aborted) this.#controller = new AbortController();
  }
}

export interface ConversationOptions {
  readonly input: TerminalInput;
  /** Where the `>` prompt and the session's own lines go (stderr). */
  readonly output: NodeJS.WritableStream;
  readonly turns: TurnCancellation;
  /** One user turn on top of the history so far. */
  readonly runTurn: (
    text: string,
    signal: AbortSignal,
    history: readonly Message[] | undefined,
  ) => Promise<RunResult>;
  /** Shows a finished turn (its answer, its closing line). */
  readonly showResult: (result: RunResult) => void;
  /** Clears whatever a stopped turn left drawn (a spinner). */
  readonly onTurnFailed: () => void;
  /** The history so far, when the conversation goes on from a journal (`agent resume`). */
  readonly history?: readonly Message[];
  /** `/compact`, `/clear`, `/context` (context-commands.ts); absent, they are not offered. */
  readonly context?: ContextCommands;
}

export const CONVERSATION_HELP = [
  "Type a task or a follow-up and press Enter; each line is a new turn of the same conversation.",
  "Ctrl-C stops the current turn. Ctrl-C on an empty line, Ctrl-D or /exit ends the session.",
  "/help shows this.",
].join("\n");

const PROMPT = "> ";

/**
 * `agent` with no task on a terminal: a conversation. Each line is a user turn in one history; a
 * stopped turn keeps what it did so far, a turn that fails leaves the history as it was after the
 * last finished turn.
 */
export async function runConversation(options: ConversationOptions): Promise<void> {
  const { output, turns } = options;
  output.write(`Conversation: /help for help, /exit or Ctrl-D to end.\n`);
  let history: readonly Message[] | undefined = options.history;
  for (;;) {
    const line = await readLine(options.input, output);
    if (line === undefined) return;
    const text = line.trim();
    if (text === "") continue;
    if (text === "/exit") return;
    if (text === "/help") {
      output.write(`${CONVERSATION_HELP}\n`);
      if (options.context !== undefined) output.write(`${CONTEXT_COMMANDS_HELP}\n`);
      continue;
    }
    // --- context commands (issue 26) ---
    if (options.context !== undefined && isContextCommand(text)) {
      turns.next();
      history = await runContextCommand(text, history, options.context, output, turns.signal);
      continue;
    }
    // --- end context commands ---
    turns.next();
    try {
      const result = await options.runTurn(line, turns.signal, history);
      history = result.history;
      options.showResult(result);
    } catch (error) {
      options.onTurnFailed();
      if (error instanceof RunCancelledError || turns.signal.aborted) {
        // What the stopped turn already did stays known: the person's line, and each call that
        // ran with its result (the runner pairs the rest with `cancelled` ones).
        if (error instanceof RunCancelledError && error.history !== undefined) {
          history = error.history;
        }
        output.write("agent: turn stopped\n");
      } else if (error instanceof AgentRunError) {
        output.write(`agent: ${escapeForPrompt(firstLineOfError(error))}\n`);
      } else {
        throw error;
      }
    }
  }
}

/** One line from the person; `undefined` for Ctrl-D, or Ctrl-C on an empty line. */
function readLine(
  input: TerminalInput,
  output: NodeJS.WritableStream,
): Promise<string | undefined> {
  if (input.readableEnded === true || input.destroyed === true) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const reader = createInterface({ input, output, terminal: true });
    let settled = false;
    const settle = (line: string | undefined): void => {
      if (settled) return;
      settled = true;
      reader.close();
      input.pause();
      if (line === undefined) output.write("\n");
      resolve(line);
    };
    reader.once("line", (line) => {
      settle(line);
    });
    reader.once("close", () => {
      settle(undefined);
    });
    reader.on("SIGINT", () => {
      // Ctrl-C with text typed clears the line; on an empty line it ends the session.
      if (reader.line === "") {
        settle(undefined);
        return;
      }
      output.write("\n");
      reader.write(null, { ctrl: true, name: "u" });
      reader.prompt();
    });
    reader.on("error", () => {
      settle(undefined);
    });
    reader.setPrompt(PROMPT);
    reader.prompt();
  });
}
