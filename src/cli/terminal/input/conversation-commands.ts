/**
 * The conversation's own slash commands. Features with commands of their own (the context budget's
 * `/compact`, `/clear`, `/context`) pass theirs beside these to `SlashCommands`.
 */
import { escapeForPrompt } from "../render/terminal-text.js";
import type { SlashCommand, SlashCommandEnd } from "./slash-commands.js";

/**
 * One logical line per topic: `/help` breaks them into rows for the terminal it is shown on
 * (harness-rows.ts), rather than each being broken here for one width.
 */
export const CONVERSATION_HELP = [
  "Type a task or a follow-up and press Enter; each message is a new turn of the same conversation.",
  "A paste is one message, its lines kept. End a line with \\ (or press Alt-Enter) to go on typing on the next line.",
  "Up and Down recall earlier lines, from this session and the ones before.",
  "Ctrl-C stops the current turn. Ctrl-C on an empty line, Ctrl-D or /exit ends the session.",
].join("\n");

/** The model the next turn asks: `/model NAME` switches it, and the run's journal says so. */
export interface ModelSwitch {
  readonly current: string;
  /** Resolves once the switch is journaled; the next request goes to `name`. */
  switchTo(name: string): Promise<void>;
}

export interface ConversationCommandOptions {
  /** Absent when the model cannot be switched (a replayed recording). */
  readonly model?: ModelSwitch;
}

/** A model name as a provider takes it: one word of printable characters. */
const MODEL_NAME = /^[^\s\p{Cc}]{1,200}$/u;

export function conversationCommands(options: ConversationCommandOptions): SlashCommand[] {
  const help: SlashCommand = {
    name: "help",
    summary: "Show this help",
    run: (_args, state) => {
      state.commands.writeListing(state.output, [...CONVERSATION_HELP.split("\n"), "Commands:"]);
      return "continue";
    },
  };
  const exit: SlashCommand = { name: "exit", summary: "End the session", run: () => "exit" };
  const model: SlashCommand = {
    name: "model",
    usage: "/model [NAME]",
    summary: "Show the model, or switch to NAME from the next turn on",
    run: async (args, state): Promise<SlashCommandEnd> => {
      const switcher = options.model;
      if (switcher === undefined) {
        state.output.write("agent: /model: this run's replies come from a recording\n");
        return "continue";
      }
      if (args === "") {
        state.output.write(`agent: model ${escapeForPrompt(switcher.current)}\n`);
        return "continue";
      }
      if (!MODEL_NAME.test(args)) {
        state.output.write(
          `agent: /model takes one model name, e.g. /model gpt-4o-mini (got ${escapeForPrompt(JSON.stringify(args))})\n`,
        );
        return "continue";
      }
      await switcher.switchTo(args);
      state.output.write(`agent: model ${escapeForPrompt(args)} from the next turn on\n`);
      return "continue";
    },
  };
  const usage: SlashCommand = {
    name: "usage",
    summary: "Tokens the model reported this session",
    run: (_args, state) => {
      const used = state.usage;
      state.output.write(
        used === undefined
          ? "agent: no tokens reported yet this session\n"
          : `agent: tokens this session: ${String(used.promptTokens)} prompt + ${String(used.completionTokens)} completion = ${String(used.totalTokens)}\n`,
      );
      return "continue";
    },
  };
  return [help, exit, model, usage];
}
