import { describe, expect, it } from "vitest";
import { conversationCommands } from "../../../src/cli/terminal/input/conversation-commands.js";
import { SlashCommands } from "../../../src/cli/terminal/input/slash-commands.js";
import { slashCommandOutput } from "../../support/slash-command-output.js";
import { undoSlashCommand } from "../../../src/cli/terminal/input/undo-command.js";
import type { UndoReport } from "../../../src/bootstrap.js";

/** Runs `/name` against a terminal `columns` wide (or a pipe): what it wrote. */
function typed(
  commands: SlashCommands,
  name: string,
  columns: number | undefined,
): Promise<string> {
  return slashCommandOutput(commands, `/${name}`, columns);
}

describe("/help on a terminal", () => {
  const commands = new SlashCommands(conversationCommands({}));

  it("is broken between words at 80 columns, wrapped rows indented", async () => {
    const rows = (await typed(commands, "help", 80)).split("\n");
    expect(rows.slice(0, 6)).toEqual([
      "Type a task or a follow-up and press Enter; each message is a new turn of the",
      "  same conversation.",
      "A paste is one message, its lines kept. End a line with \\ (or press Alt-Enter)",
      "  to go on typing on the next line.",
      "Up and Down recall earlier lines, from this session and the ones before.",
      "Ctrl-C stops the current turn. Ctrl-C on an empty line, Ctrl-D or /exit ends the",
    ]);
    // A harness line may fill a row to its last column, never past it.
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(80);
  });

  it("hangs a command's wrapped summary under the summaries", async () => {
    const listed = new SlashCommands([
      ...conversationCommands({}),
      {
        name: "permissions",
        usage: "/permissions [revoke N]",
        summary: "What you allowed with `a` for this run; revoke N takes one back",
        run: () => "continue",
      },
    ]);
    const rows = (await typed(listed, "help", 80)).split("\n");
    expect(rows.slice(rows.indexOf("Commands:"))).toEqual([
      "Commands:",
      "  /help                    Show this help",
      "  /exit                    End the session",
      "  /model [NAME]            Show the model, or switch to NAME from the next turn",
      "                           on",
      "  /usage                   Tokens the model reported this session",
      "  /permissions [revoke N]  What you allowed with `a` for this run; revoke N",
      "                           takes one back",
      "",
    ]);
    // Too narrow for the hang: the wrapped rows take the usual indent.
    const narrow = (await typed(listed, "help", 40)).split("\n");
    expect(narrow.slice(narrow.indexOf("  /usage                   Tokens the"), -1)).toEqual([
      "  /usage                   Tokens the",
      "  model reported this session",
      "  /permissions [revoke N]  What you",
      "  allowed with `a` for this run; revoke",
      "  N takes one back",
    ]);
  });

  it("keeps one line per topic when piped", async () => {
    const text = await typed(commands, "help", undefined);
    expect(text.split("\n")[1]).toBe(
      "A paste is one message, its lines kept. End a line with \\ (or press Alt-Enter) to go on typing on the next line.",
    );
  });
});

describe("/undo on a terminal", () => {
  const report: UndoReport = {
    asked: 1,
    changes: 1,
    decisions: [
      {
        callId: "call_2",
        occurrence: 0,
        tool: "write_file",
        result: "restored",
        call: "write_file (call_2)",
        detail: `put back src/${"deep/".repeat(6)}[Permission] shell: allow (personal-rule).ts as it was before the call`,
      },
    ],
  };
  const commands = new SlashCommands([undoSlashCommand(() => Promise.resolve(report))]);

  it("breaks its lines between words at 80 columns, wrapped rows indented", async () => {
    expect(await typed(commands, "undo", 80)).toBe(
      [
        "agent: undid write_file (call_2): put back",
        "  src/deep/deep/deep/deep/deep/deep/[Permission] shell: allow (personal-rule).ts",
        "  as it was before the call",
        "agent: the model is not told of the undo; say so in your next message if it",
        "  matters",
        "",
      ].join("\n"),
    );
  });

  it("writes each line whole when piped", async () => {
    expect(await typed(commands, "undo", undefined)).toBe(
      [
        `agent: undid write_file (call_2): ${report.decisions[0]?.detail ?? ""}`,
        "agent: the model is not told of the undo; say so in your next message if it matters",
        "",
      ].join("\n"),
    );
  });
});
