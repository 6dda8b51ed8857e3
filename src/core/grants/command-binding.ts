/**
 * What binds an approval to a command: the script npm will run for its argv, read now, and the
 * digest of the whole action (input, where and how it runs, and that script). The policy uses
 * both when it asks; the re-check just before the spawn uses them again (p04-recheck.ts).
 */
import { actionDigest } from "../policy/approval-request.js";
import { environmentLabel } from "../policy/execution-environment.js";
import { firstLineOfError } from "../common/one-line.js";
import type { P04Context } from "./policy-context.js";
import { P04_DENIALS, type P04Decision } from "./policy-decision.js";
import { RUN_COMMAND } from "./run-command-input.js";
import { UnbindableCommandError } from "./unbindable-command.js";

/**
 * What npm will run for this argv, read now: the script in words (undefined: none), bound as one
 * text and shown as its rows, or the denial when it cannot be said or bound.
 */
export function boundScript(
  argv: readonly string[],
  context: Pick<P04Context, "scriptOf">,
):
  | {
      readonly behavior: "bound";
      readonly script: string | undefined;
      readonly rows: readonly string[] | undefined;
    }
  | Extract<P04Decision, { behavior: "deny" }> {
  try {
    const said = context.scriptOf?.(argv);
    const rows = typeof said === "string" ? [said] : said;
    // The rows joined as they always were: a digest of the same script does not change.
    return { behavior: "bound", script: rows?.join(" · "), rows };
  } catch (error) {
    const reason =
      error instanceof UnbindableCommandError
        ? P04_DENIALS.commandUnbindable
        : P04_DENIALS.scriptUnreadable;
    return { behavior: "deny", reason, detail: firstLineOfError(error) };
  }
}

/** The digest of a run_command action: its input, where and how it runs, and its script. */
export function commandDigest(
  input: Readonly<Record<string, unknown>>,
  context: Pick<P04Context, "cwd" | "network" | "sandbox">,
  script: string | undefined,
): string {
  return actionDigest({
    profile: "P04",
    tool: RUN_COMMAND,
    input,
    cwd: context.cwd,
    network: context.network,
    sandbox: environmentLabel(context.sandbox),
    script: script ?? null,
  });
}
