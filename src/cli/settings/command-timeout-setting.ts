/**
 * `--command-timeout SECONDS` over AGENT_COMMAND_TIMEOUT (the settings file's `commandTimeout`
 * arrives as that variable, settings-layers.ts): how long one `shell` or `run_command` call may run before it is killed with
 * everything it started. Whole seconds, as the model's tool description and the status line say it.
 */
import { DEFAULT_COMMAND_TIMEOUT_MS } from "../../bootstrap.js";
import { CliConfigError } from "../config-error.js";

/** A day: room for any test suite, and well inside what a timer can hold. */
export const LONGEST_COMMAND_TIMEOUT_S = 86_400;

/** In milliseconds; the harness's default when neither is given. A blank variable is unset. */
export function parseCommandTimeout(flag: string | undefined, env: string | undefined): number {
  const raw = flag ?? (env === undefined || env.trim() === "" ? undefined : env.trim());
  if (raw === undefined) return DEFAULT_COMMAND_TIMEOUT_MS;
  const seconds = Number(raw);
  if (!/^\d+$/u.test(raw) || seconds < 1 || seconds > LONGEST_COMMAND_TIMEOUT_S) {
    const name = flag === undefined ? "AGENT_COMMAND_TIMEOUT" : "--command-timeout";
    throw new CliConfigError(
      `${name} must be a whole number of seconds from 1 to ${String(LONGEST_COMMAND_TIMEOUT_S)} (got ${JSON.stringify(raw)})`,
    );
  }
  return seconds * 1000;
}
