import { sayAgent } from "../render/agent-line.js";
import { AgentRunError, RunCancelledError } from "../../../core/common/agent-errors.js";
import type { RunResult } from "../../../core/runner/agent-runner.js";
import type { Message } from "../../../core/ports/messages.js";
import { firstLineOfError } from "../../../core/common/one-line.js";
import type { TerminalInput } from "./terminal-input.js";
import { withoutEcho, type TerminalEcho } from "./terminal-echo.js";
import type { TokenUsage } from "../../../core/ports/model.js";
import { addUsage } from "../../../core/runner/model-reply-checks.js";
import { conversationCommands } from "./conversation-commands.js";
import { MessageReader, type HistoryStore } from "./message-reader.js";
import {
  parseSlashCommand,
  SlashCommands,
  type ConversationState,
  type ParsedCommand,
  type SlashCommandEnd,
} from "./slash-commands.js";

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
  /** Off while a turn runs and shows its end: keys typed ahead are held, not drawn into it. */
  readonly echo?: TerminalEcho;
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
  /** The slash commands; by default the conversation's own, without `/model`. */
  readonly commands?: SlashCommands;
  /** Input lines kept across sessions (the state directory's history file). */
  readonly historyStore?: HistoryStore;
}

export { CONVERSATION_HELP } from "./conversation-commands.js";

/**
 * `agent` with no task on a terminal: a conversation. Each message is a user turn in one history; a
 * stopped turn keeps what it did so far, a turn that fails leaves the history as it was after the
 * last finished turn. A `/word` line is a command (slash-commands.ts), never a turn.
 */
export async function runConversation(options: ConversationOptions): Promise<void> {
  const { output, turns } = options;
  output.write(`Conversation: /help for help, /exit or Ctrl-D to end.\n`);
  const reader = new MessageReader({
    input: options.input,
    output,
    ...(options.historyStore === undefined ? {} : { store: options.historyStore }),
  });
  const commands = options.commands ?? new SlashCommands(conversationCommands({}));
  let usage: TokenUsage | undefined;
  const state: ConversationState = {
    output,
    history: options.history,
    get usage() {
      return usage;
    },
    commands,
    get signal() {
      return turns.signal;
    },
  };
  for (;;) {
    const message = await reader.read();
    if (message === undefined) return;
    if (message.text.trim() === "") continue;
    const command = message.pasted ? undefined : parseSlashCommand(message.typed);
    if (command !== undefined) {
      if ((await runCommand(commands, command, state)) === "exit") return;
      continue;
    }
    turns.next();
    await withoutEcho(options.echo, async () => {
      try {
        const result = await options.runTurn(message.text, turns.signal, state.history);
        state.history = result.history;
        usage = addUsage(usage, result.usage);
        options.showResult(result);
      } catch (error) {
        options.onTurnFailed();
        if (error instanceof RunCancelledError || turns.signal.aborted) {
          // What the stopped turn already did stays known: the person's line, and each call that
          // ran with its result (the runner pairs the rest with `cancelled` ones).
          if (error instanceof RunCancelledError && error.history !== undefined) {
            state.history = error.history;
          }
          output.write("agent: turn stopped\n");
        } else if (error instanceof AgentRunError) {
          sayAgent(output, firstLineOfError(error));
        } else {
          throw error;
        }
      }
    });
  }
}

/** A command that fails (its journal record could not be written) says so; the session goes on. */
async function runCommand(
  commands: SlashCommands,
  command: ParsedCommand,
  state: ConversationState,
): Promise<SlashCommandEnd> {
  try {
    return await commands.run(command, state);
  } catch (error) {
    sayAgent(state.output, `/${command.name}: ${firstLineOfError(error)}`);
    return "continue";
  }
}
