/**
 * One `/clear`: a real conversation has the context budget's, which the agent journals as a
 * replaced history; the conversation itself neither has one nor journals anything for it.
 */
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setUpConversation } from "../../src/cli/modes/conversation-setup.js";
import { contextSlashCommands } from "../../src/cli/terminal/input/context-commands.js";
import { mcpSlashCommand } from "../../src/cli/terminal/input/mcp-command.js";
import { permissionCommands } from "../../src/cli/terminal/input/permission-commands.js";
import { undoSlashCommand } from "../../src/cli/terminal/input/undo-command.js";
import { RunGrants } from "../../src/core/policy/run-grants.js";
import type { JournalRecord } from "../../src/core/journal/journal-records.js";
import type { Message } from "../../src/core/ports/messages.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";

let dir: TempWorkspace;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-conversation-setup-");
});
afterEach(() => dir.cleanup());

describe("setUpConversation", () => {
  it("has one /clear, the context budget's; the conversation journals nothing for it", async () => {
    const journaled: JournalRecord[] = [];
    const clearedBy: (readonly Message[])[] = [];
    const system: Message = { role: "system", content: "system" };
    const conversation = setUpConversation({
      stateRoot: dir.outside,
      journal: { append: (record) => Promise.resolve(void journaled.push(record)) },
      model: undefined,
      stderr: new PassThrough(),
      extraCommands: contextSlashCommands({
        compactNow: (history) => Promise.resolve(history),
        clearHistory: (history) => {
          clearedBy.push(history);
          return Promise.resolve([system]);
        },
        describeContext: () => [],
      }),
    });
    try {
      const listing = conversation.commands.listing().split("\n");
      expect(listing.filter((line) => line.startsWith("  /clear "))).toEqual([
        "  /clear         Start a new history in this session (the journal keeps all)",
      ]);
      const output = new PassThrough();
      const history: Message[] = [system, { role: "user", content: "earlier" }];
      const state = {
        output,
        history: history as readonly Message[] | undefined,
        usage: undefined,
        commands: conversation.commands,
        signal: new AbortController().signal,
      };
      await conversation.commands.run({ name: "clear", args: "" }, state);
      expect(clearedBy).toEqual([history]);
      expect(state.history).toEqual([system]);
      expect(journaled).toEqual([]);
    } finally {
      conversation.close();
    }
  });

  it("/help in a daily conversation lists every command in whole sentences", () => {
    const conversation = setUpConversation({
      stateRoot: dir.outside,
      journal: { append: () => Promise.resolve() },
      model: undefined,
      stderr: new PassThrough(),
      extraCommands: [
        ...permissionCommands(new RunGrants({ workspace: "/ws" }), [], () => true),
        mcpSlashCommand(() => []),
        undoSlashCommand(() => Promise.reject(new Error("not called"))),
      ],
    });
    try {
      expect(conversation.commands.listing()).toBe(
        [
          "  /help                    Show this help",
          "  /exit                    End the session",
          "  /model [NAME]            Show the model, or switch to NAME from the next turn on",
          "  /usage                   Tokens the model reported this session",
          "  /permissions [revoke N]  What you allowed with `a` for this run; revoke N takes one back",
          "  /mcp                     This run's MCP servers and their tools",
          "  /undo [N]                Take back the last N calls that changed files (default 1); commands cannot be undone",
        ].join("\n"),
      );
    } finally {
      conversation.close();
    }
  });
});
