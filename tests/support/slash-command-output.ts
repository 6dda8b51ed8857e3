/** Runs one slash command against a terminal `columns` wide (or a pipe) and returns what it wrote. */
import { PassThrough } from "node:stream";
import type {
  ConversationState,
  SlashCommands,
} from "../../src/cli/terminal/input/slash-commands.js";

export async function slashCommandOutput(
  commands: SlashCommands,
  line: string,
  columns?: number,
): Promise<string> {
  const output =
    columns === undefined
      ? new PassThrough()
      : Object.assign(new PassThrough(), { isTTY: true, columns });
  let text = "";
  output.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  const state: ConversationState = {
    output,
    history: undefined,
    usage: undefined,
    commands,
    signal: new AbortController().signal,
  };
  const [name, ...rest] = line.slice(1).split(" ");
  await commands.run({ name: name ?? "", args: rest.join(" ") }, state);
  return text;
}
