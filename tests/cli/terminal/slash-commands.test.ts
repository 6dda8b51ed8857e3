import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { conversationCommands } from "../../../src/cli/terminal/input/conversation-commands.js";
import {
  parseSlashCommand,
  SlashCommands,
  type ConversationState,
} from "../../../src/cli/terminal/input/slash-commands.js";

function stateWith(
  commands: SlashCommands,
  terminal?: { readonly columns: number },
): { state: ConversationState; shown: () => string } {
  const output =
    terminal === undefined
      ? new PassThrough()
      : Object.assign(new PassThrough(), { isTTY: true, columns: terminal.columns });
  let text = "";
  output.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const state: ConversationState = {
    output,
    history: [{ role: "user", content: "earlier" }],
    usage: { promptTokens: 30, completionTokens: 5, totalTokens: 35 },
    commands,
    signal: new AbortController().signal,
  };
  return { state, shown: () => text };
}

describe("parseSlashCommand", () => {
  it.each([
    ["/help", { name: "help", args: "" }],
    ["  /model  gpt-x  ", { name: "model", args: "gpt-x" }],
    ["/Model a b", { name: "model", args: "a b" }],
    ["/nonsense", { name: "nonsense", args: "" }],
    ["/usr/lib/libc.so is missing", undefined],
    ["/", undefined],
    ["// comment", undefined],
    ["fix /help", undefined],
    ["/1st", undefined],
  ])("%j", (typed, expected) => {
    expect(parseSlashCommand(typed)).toEqual(expected);
  });
});

describe("SlashCommands", () => {
  it("an unknown command is an error that lists the commands", async () => {
    const commands = new SlashCommands(conversationCommands({}));
    const { state, shown } = stateWith(commands);
    expect(await commands.run({ name: "nonsense", args: "" }, state)).toBe("continue");
    expect(shown()).toBe(
      [
        "agent: unknown command /nonsense; nothing was sent to the model. Commands:",
        "  /help          Show this help",
        "  /exit          End the session",
        "  /model [NAME]  Show the model, or switch to NAME from the next turn on",
        "  /usage         Tokens the model reported this session",
        "",
      ].join("\n"),
    );
  });

  it("on a terminal, an unknown command's listing wraps under the summaries, as /help's does", async () => {
    const commands = new SlashCommands(conversationCommands({}));
    const unknown = stateWith(commands, { columns: 50 });
    await commands.run({ name: "nonsense", args: "" }, unknown.state);
    const listing = [
      "  /help          Show this help",
      "  /exit          End the session",
      "  /model [NAME]  Show the model, or switch to NAME",
      "                 from the next turn on",
      "  /usage         Tokens the model reported this",
      "                 session",
      "",
    ].join("\n");
    expect(unknown.shown()).toBe(
      `agent: unknown command /nonsense; nothing was sent\n  to the model. Commands:\n${listing}`,
    );
    const help = stateWith(commands, { columns: 50 });
    await commands.run({ name: "help", args: "" }, help.state);
    expect(help.shown().endsWith(`\nCommands:\n${listing}`)).toBe(true);
  });

  it("a feature adds its own command as an entry; a name used twice is refused", async () => {
    const commands = new SlashCommands([
      ...conversationCommands({}),
      { name: "context", summary: "Show the context budget", run: () => "continue" },
    ]);
    expect(commands.listing()).toContain("  /context       Show the context budget");
    expect(
      () => new SlashCommands([...conversationCommands({}), ...conversationCommands({})]),
    ).toThrow("two slash commands are named /help");
    const { state } = stateWith(commands);
    expect(await commands.run({ name: "exit", args: "" }, state)).toBe("exit");
  });

  it("/model NAME journals the switch before it happens; a bad name switches nothing", async () => {
    const events: string[] = [];
    let current = "small";
    const commands = new SlashCommands(
      conversationCommands({
        model: {
          get current() {
            return current;
          },
          switchTo: (name) => {
            events.push(`journal ${name}`);
            current = name;
            return Promise.resolve();
          },
        },
      }),
    );
    const { state, shown } = stateWith(commands);
    await commands.run({ name: "model", args: "" }, state);
    await commands.run({ name: "model", args: "two words" }, state);
    await commands.run({ name: "model", args: "big-model" }, state);
    expect(events).toEqual(["journal big-model"]);
    expect(shown()).toBe(
      [
        "agent: model small",
        'agent: /model takes one model name, e.g. /model gpt-4o-mini (got "two words")',
        "agent: model big-model from the next turn on",
        "",
      ].join("\n"),
    );
  });

  it("/usage sums the session's tokens", async () => {
    const commands = new SlashCommands(conversationCommands({}));
    const { state, shown } = stateWith(commands);
    await commands.run({ name: "usage", args: "" }, state);
    expect(shown()).toBe("agent: tokens this session: 30 prompt + 5 completion = 35\n");
  });
});
