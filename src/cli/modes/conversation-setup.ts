/**
 * What a conversation needs beyond the run: its slash commands (the conversation's own, and a
 * feature's, such as the context budget's) with `/model` journaled, and the input
 * history kept in the state directory. A history file that cannot be used safely (a link, a FIFO,
 * too large) is named in one warning and the conversation goes on without it.
 */
import { sayAgent } from "../terminal/render/agent-line.js";
import { openInputHistory, type InputHistory, type SwitchableModel } from "../../bootstrap.js";
import type { RunJournal } from "../../core/journal/journal-records.js";
import { conversationCommands } from "../terminal/input/conversation-commands.js";
import { SlashCommands, type SlashCommand } from "../terminal/input/slash-commands.js";

export interface ConversationSetupOptions {
  readonly stateRoot: string;
  readonly journal: RunJournal;
  /** Absent for a replayed recording, whose model cannot change. */
  readonly model: SwitchableModel | undefined;
  readonly stderr: NodeJS.WritableStream;
  /** Commands a feature adds (the context budget's `/compact`, `/clear`, `/context`). */
  readonly extraCommands?: readonly SlashCommand[];
}

export interface ConversationSetup {
  readonly commands: SlashCommands;
  readonly historyStore: InputHistory | undefined;
  close(): void;
}

export function setUpConversation(options: ConversationSetupOptions): ConversationSetup {
  const { journal, model } = options;
  const commands = new SlashCommands([
    ...conversationCommands({
      ...(model === undefined
        ? {}
        : {
            model: {
              get current() {
                return model.current;
              },
              // Journaled first: a switch the journal does not have must not happen.
              switchTo: async (name: string) => {
                await journal.append({ type: "model_switched", model: name });
                model.switchTo(name);
              },
            },
          }),
    }),
    ...(options.extraCommands ?? []),
  ]);
  const history = openInputHistory(options.stateRoot);
  if (history.problem !== undefined) {
    sayAgent(options.stderr, `warning: input history not kept: ${history.problem}`);
  }
  const historyStore = history.store;
  return {
    commands,
    historyStore,
    close: () => {
      historyStore?.close();
    },
  };
}
