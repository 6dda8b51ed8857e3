/**
 * `agent resume` goes on with a run where it was started: the same `--sandbox`, `--network` and
 * `--command-timeout`, read from its journal. A P04 grant is bound to where the command runs, so a
 * resume elsewhere would make its approved call ask again (or be denied outright); a chapter-3 run
 * must not go on less confined than it began; and its commands run under the time limit its
 * earlier calls ran (and were recorded) under. A setting given for the resume that differs is
 * refused, not obeyed.
 */
import { LONGEST_COMMAND_TIMEOUT_S } from "./command-timeout-setting.js";
import { SANDBOX_MODES, type CliOptions } from "../args.js";
import { CliConfigError } from "../config-error.js";

/** What the run's `run_started` record says; absent in a journal written before they were kept. */
export interface RecordedSettings {
  readonly sandbox?: string;
  readonly network?: boolean;
  readonly commandTimeoutMs?: number;
}

type KeptSettings = Pick<CliOptions, "sandbox" | "network" | "commandTimeoutMs">;

/** Where the resume's own sandbox setting came from, when it was given at all. */
export type SandboxSource = "--sandbox" | "AGENT_SANDBOX" | undefined;

export function keepRunSettings(
  runId: string,
  recorded: RecordedSettings,
  options: KeptSettings,
  given: {
    readonly sandbox: SandboxSource;
    readonly network: boolean;
    readonly commandTimeout: boolean;
  },
): KeptSettings {
  const sandbox = recorded.sandbox === undefined ? options.sandbox : recordedMode(runId, recorded);
  if (given.sandbox !== undefined && options.sandbox !== sandbox) {
    const fix =
      given.sandbox === "--sandbox"
        ? `leave out --sandbox (or give --sandbox ${sandbox})`
        : `unset AGENT_SANDBOX (or set it to ${sandbox})`;
    throw new CliConfigError(
      `run ${runId} was started with --sandbox ${sandbox}, and resume keeps it: ${fix}`,
    );
  }
  // There is no flag that turns the network off, so only `--network` can conflict.
  if (recorded.network === false && given.network) {
    throw new CliConfigError(
      `run ${runId} was started without --network, and resume keeps it: leave out --network`,
    );
  }
  const commandTimeoutMs = recordedTimeout(runId, recorded) ?? options.commandTimeoutMs;
  if (given.commandTimeout && options.commandTimeoutMs !== commandTimeoutMs) {
    const seconds = String(commandTimeoutMs / 1000);
    throw new CliConfigError(
      `run ${runId} was started with --command-timeout ${seconds}, and resume keeps it: leave out --command-timeout (or give --command-timeout ${seconds})`,
    );
  }
  return { sandbox, network: recorded.network ?? options.network, commandTimeoutMs };
}

/**
 * The journal's limit, held to the flag's bounds: a journal is a file on disk, and 0, a fraction
 * or more than Node's timers take would kill every command at once.
 */
function recordedTimeout(runId: string, recorded: RecordedSettings): number | undefined {
  const ms = recorded.commandTimeoutMs;
  if (ms === undefined) return undefined;
  if (Number.isInteger(ms / 1000) && ms >= 1000 && ms <= LONGEST_COMMAND_TIMEOUT_S * 1000)
    return ms;
  throw new CliConfigError(
    `run ${runId}'s journal records a command timeout of ${String(ms)} ms, which no --command-timeout gives (whole seconds from 1 to ${String(LONGEST_COMMAND_TIMEOUT_S)}): the journal is damaged`,
  );
}

function recordedMode(runId: string, recorded: RecordedSettings): CliOptions["sandbox"] {
  const mode = SANDBOX_MODES.find((known) => known === recorded.sandbox);
  if (mode === undefined) {
    throw new CliConfigError(
      `run ${runId} was started with --sandbox ${JSON.stringify(recorded.sandbox)}, which this agent does not know`,
    );
  }
  return mode;
}

/** Whether the resume's arguments or environment chose a sandbox, and which of them did. */
export function sandboxSource(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): SandboxSource {
  if (args.some((arg) => arg === "--sandbox" || arg.startsWith("--sandbox="))) return "--sandbox";
  return (env.AGENT_SANDBOX ?? "").trim() === "" ? undefined : "AGENT_SANDBOX";
}
