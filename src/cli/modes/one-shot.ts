/**
 * The one-shot mode: one task (or one resumed run) to its answer, shown on stdout.
 */
import type { ComposedRun } from "../../bootstrap.js";
import type { RunResult } from "../../core/runner/agent-runner.js";
import { everyCallDenied } from "../../core/tools/tool-outcome.js";
import { EXIT } from "../exit-codes.js";
import type { RunTerminal } from "./run-terminal.js";

export async function oneShotMode(
  run: ComposedRun,
  terminal: RunTerminal,
  prompt: string | undefined,
): Promise<number> {
  const showResult = await terminal.answerShower();
  const result = await runToAnswer(run, terminal, prompt);
  showResult(result);
  return exitCodeOf(result, terminal);
}

/** A new run's task, or a resumed run from where its journal ends. */
export function runToAnswer(
  run: ComposedRun,
  terminal: RunTerminal,
  prompt: string | undefined,
): Promise<RunResult> {
  const replayed = run.session.resumed;
  const { signal } = terminal.cancel;
  return replayed === undefined
    ? run.agent.run(prompt ?? "", signal)
    : run.agent.resume(replayed.history, replayed.openCalls, signal);
}

/** Piped, nobody saw the denials: a script must be able to tell this answer from a success. */
export function exitCodeOf(result: RunResult, terminal: RunTerminal): number {
  return !terminal.interactive && everyCallDenied(result.outcomes) ? EXIT.allDenied : EXIT.ok;
}
