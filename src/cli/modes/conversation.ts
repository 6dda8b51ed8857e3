/**
 * The conversation mode: no task on a terminal (or a resumed run there, once it has its answer).
 * Each message is a turn; the slash commands and the input history are set up here.
 */
import type { ComposedRun } from "../../bootstrap.js";
import type { Message } from "../../core/ports/messages.js";
import { permissionCommands } from "../terminal/input/permission-commands.js";
import { EXIT } from "../exit-codes.js";
import { contextSlashCommands } from "../terminal/input/context-commands.js";
import { mcpSlashCommand } from "../terminal/input/mcp-command.js";
import { undoSlashCommand } from "../terminal/input/undo-command.js";
import { runConversation } from "../terminal/input/conversation.js";
import { withoutEcho } from "../terminal/input/terminal-echo.js";
import { contextCommandsOf } from "./context-setup.js";
import { setUpConversation } from "./conversation-setup.js";
import type { RunTerminal } from "./run-terminal.js";

export async function conversationMode(run: ComposedRun, terminal: RunTerminal): Promise<number> {
  const { agent, session } = run;
  const { io, cancel, reporter } = terminal;
  const showResult = await terminal.answerShower();
  // Nothing is in flight while the person types: let the sandbox check finish first, so a
  // fallback warning comes before the first "> " prompt, not in the middle of it.
  await run.sandboxDecided();
  let history: readonly Message[] | undefined;
  const replayed = session.resumed;
  if (replayed !== undefined) {
    // A replayed turn streams like any other: keys typed meanwhile wait for the first prompt.
    const result = await withoutEcho(io.echo, () =>
      agent.resume(replayed.history, replayed.openCalls, cancel.signal),
    );
    // A conversation closed after `/clear` (or before its first line) has no answer to show
    // again: it goes on at the prompt.
    if (result.turns > 0 || result.finalText !== "") showResult(result);
    history = result.history;
  }
  // The conversation's slash commands (/model and /clear go into the journal, so a resume sees
  // them) and its input history file.
  const conversation = setUpConversation({
    stateRoot: run.stateRoot,
    journal: session.journal,
    model: run.switchableModel,
    stderr: io.stderr,
    extraCommands: [
      ...contextSlashCommands(contextCommandsOf(agent)),
      ...(run.runGrants === undefined
        ? []
        : permissionCommands(run.runGrants, run.personalRules, () => commandsIsolated(run))),
      mcpSlashCommand(() => run.mcpServers()),
      undoSlashCommand((count) => run.undo(count)),
    ],
  });
  try {
    await runConversation({
      ...(history === undefined ? {} : { history }),
      input: io.stdin,
      ...(io.echo === undefined ? {} : { echo: io.echo }),
      output: io.stderr,
      turns: cancel,
      runTurn: (text, signal, history) => agent.run(text, signal, history),
      showResult,
      onTurnFailed: () => {
        reporter.dispose();
      },
      commands: conversation.commands,
      ...(conversation.historyStore === undefined
        ? {}
        : { historyStore: conversation.historyStore }),
    });
  } finally {
    conversation.close();
  }
  return EXIT.ok;
}

/** Whether the run's commands run in the sandbox now; a status that throws says no. */
function commandsIsolated(run: ComposedRun): boolean {
  try {
    return run.execution.environment.status().kind === "isolated";
  } catch {
    return false;
  }
}
