/**
 * Slash commands in a conversation: `/help`, `/exit`, `/model NAME`, … Each is an entry in a
 * registry, so a feature adds its own (`/compact`, `/context`) without touching the loop. A line
 * that starts with `/word` is a command, known or not, and never reaches the model; a path such as
 * `/usr/lib/x is missing` is not a word and goes to the model as written.
 */
import type { Message } from "../../../core/ports/messages.js";
import type { TokenUsage } from "../../../core/ports/model.js";
import { writeHarnessLines, type HarnessOutput } from "../render/harness-rows.js";

/** What a command may see and change of the conversation between two turns. */
export interface ConversationState {
  /** Where the session's own lines go (stderr): write whole lines. */
  readonly output: NodeJS.WritableStream;
  /** The history the next turn goes on from; `undefined` starts afresh. */
  history: readonly Message[] | undefined;
  /** Tokens the model reported this session, summed over the turns. */
  readonly usage: TokenUsage | undefined;
  /** Every command in the registry, for `/help`. */
  readonly commands: SlashCommands;
  /** Ctrl-C while a command works (a `/compact` asks the model): a fresh one per command. */
  readonly signal: AbortSignal;
}

/** `exit` ends the session; anything else waits for the next line. */
export type SlashCommandEnd = "continue" | "exit";

export interface SlashCommand {
  /** Without the slash: `model`. */
  readonly name: string;
  /** As shown in `/help`: `/model NAME`. Defaults to `/name`. */
  readonly usage?: string;
  readonly summary: string;
  /** `args`: the rest of the line, trimmed (`""` when none). */
  run(args: string, state: ConversationState): SlashCommandEnd | Promise<SlashCommandEnd>;
}

/** A command: a slash and a word at the start of a typed line. */
const COMMAND_LINE = /^\/([A-Za-z][A-Za-z0-9_-]*)(?:\s+([\s\S]*))?$/;

export interface ParsedCommand {
  readonly name: string;
  readonly args: string;
}

export function parseSlashCommand(typed: string): ParsedCommand | undefined {
  const match = COMMAND_LINE.exec(typed.trim());
  if (match?.[1] === undefined) return undefined;
  return { name: match[1].toLowerCase(), args: (match[2] ?? "").trim() };
}

export class SlashCommands {
  readonly #commands = new Map<string, SlashCommand>();

  constructor(commands: readonly SlashCommand[]) {
    for (const command of commands) {
      if (this.#commands.has(command.name)) {
        throw new Error(`two slash commands are named /${command.name}`);
      }
      this.#commands.set(command.name, command);
    }
  }

  get(name: string): SlashCommand | undefined {
    return this.#commands.get(name);
  }

  /** One line per command, its usage padded so the summaries line up. */
  listing(): string {
    return this.#listed().lines.join("\n");
  }

  /**
   * `before` (escaped already), then the listing, as rows for `output` (harness-rows.ts): on a
   * terminal a summary too long for its row goes on under itself, past the column of usages, the
   * same wherever the list is shown (`/help`, an unknown command).
   */
  writeListing(output: HarnessOutput, before: readonly string[]): void {
    const { lines, hang } = this.#listed();
    writeHarnessLines(output, before);
    writeHarnessLines(output, lines, () => hang);
  }

  #listed(): { lines: string[]; hang: string } {
    const commands = [...this.#commands.values()];
    const width = Math.max(...commands.map((command) => usageOf(command).length));
    return {
      lines: commands.map((command) => `  ${usageOf(command).padEnd(width)}  ${command.summary}`),
      hang: " ".repeat(width + 4),
    };
  }

  /** Runs a parsed command line: an unknown name is an error that lists the known ones. */
  async run(parsed: ParsedCommand, state: ConversationState): Promise<SlashCommandEnd> {
    const command = this.#commands.get(parsed.name);
    if (command === undefined) {
      this.writeListing(state.output, [
        `agent: unknown command /${parsed.name}; nothing was sent to the model. Commands:`,
      ]);
      return "continue";
    }
    return command.run(parsed.args, state);
  }
}

function usageOf(command: SlashCommand): string {
  return command.usage ?? `/${command.name}`;
}
