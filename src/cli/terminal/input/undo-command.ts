/**
 * `/undo [N]` in a conversation: takes back the file changes of this run's last call (or last N),
 * and says what became of each, a refusal with its reason, a command as beyond undo.
 */
import type { UndoReport } from "../../../bootstrap.js";
import { writeHarnessLines } from "../render/harness-rows.js";
import { writeUndoReport } from "../render/undo-report.js";
import type { SlashCommand, SlashCommandEnd } from "./slash-commands.js";

export const UNDO_COUNT = /^[1-9][0-9]{0,2}$/u;

export function undoSlashCommand(undo: (count: number) => Promise<UndoReport>): SlashCommand {
  return {
    name: "undo",
    usage: "/undo [N]",
    summary: "Take back the last N calls that changed files (default 1); commands cannot be undone",
    run: async (args, state): Promise<SlashCommandEnd> => {
      if (args !== "" && !UNDO_COUNT.test(args)) {
        state.output.write("agent: /undo takes nothing, or a number of calls from 1 to 999\n");
        return "continue";
      }
      const report = await undo(args === "" ? 1 : Number(args));
      writeUndoReport(state.output, report);
      if (report.decisions.some((decision) => decision.result === "restored")) {
        writeHarnessLines(state.output, [
          "agent: the model is not told of the undo; say so in your next message if it matters",
        ]);
      }
      return "continue";
    },
  };
}
