/**
 * `/compact`, `/clear` and `/context` in a conversation: small handlers the conversation calls
 * with its history; each returns the history the next turn goes on from. The agent does the work
 * (and journals it); these only say what happened.
 */
import { sayAgent } from "../render/agent-line.js";
import { AgentRunError } from "../../../core/common/agent-errors.js";
import type { Message } from "../../../core/ports/messages.js";
import { firstLineOfError } from "../../../core/common/one-line.js";
import type { SlashCommand } from "./slash-commands.js";

/** What the conversation needs of the agent for these commands. */
export interface ContextCommands {
  compactNow(history: readonly Message[], signal: AbortSignal): Promise<readonly Message[]>;
  clearHistory(history: readonly Message[]): Promise<readonly Message[]>;
  /** Lines describing what the window holds. */
  describeContext(history: readonly Message[]): readonly string[];
}

export type ContextCommandName = "/compact" | "/clear" | "/context";

const SUMMARIES: Readonly<Record<ContextCommandName, string>> = {
  "/compact": "Summarize the older turns now, to free the context window",
  "/clear": "Start a new history in this session (the journal keeps all)",
  "/context": "Show what the context window holds",
};

/** The three as entries of the conversation's slash-command registry. */
export function contextSlashCommands(commands: ContextCommands): SlashCommand[] {
  return (Object.keys(SUMMARIES) as ContextCommandName[]).map((name) => ({
    name: name.slice(1),
    summary: SUMMARIES[name],
    run: async (_args, state) => {
      state.history = await runContextCommand(
        name,
        state.history,
        commands,
        state.output,
        state.signal,
      );
      return "continue" as const;
    },
  }));
}

/** Runs one command; a failure (say, a journal that cannot be written) is one line, not the end. */
export async function runContextCommand(
  name: ContextCommandName,
  history: readonly Message[] | undefined,
  commands: ContextCommands,
  output: NodeJS.WritableStream,
  signal: AbortSignal,
): Promise<readonly Message[] | undefined> {
  try {
    switch (name) {
      case "/context":
        output.write(`${commands.describeContext(history ?? []).join("\n")}\n`);
        return history;
      case "/clear": {
        if (history === undefined) {
          output.write("agent: the history is already empty\n");
          return history;
        }
        const cleared = await commands.clearHistory(history);
        output.write("agent: history cleared; the next line starts afresh in this session\n");
        return cleared;
      }
      case "/compact": {
        if (history === undefined) {
          output.write("agent: nothing to compact yet\n");
          return history;
        }
        // What happened (compacted, nothing to do, the summary failed) the status display says.
        return await commands.compactNow(history, signal);
      }
    }
  } catch (error) {
    if (!(error instanceof AgentRunError)) throw error;
    sayAgent(output, firstLineOfError(error));
    return history;
  }
}
