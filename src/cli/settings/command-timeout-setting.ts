/**
 * `--command-timeout SECONDS` (the settings file's `commandTimeout` arrives as the same flag,
 * settings-layers.ts): how long one `shell` or `run_command` call may run before it is killed with
 * everything it started. Whole seconds, as the model's tool description and the status line say it.
 */
import { DEFAULT_COMMAND_TIMEOUT_MS } from "../../bootstrap.js";
import { CliConfigError } from "../config-error.js";

/** A day: room for any test suite, and well inside what a timer can hold. */
export const LONGEST_COMMAND_TIMEOUT_S = 86_400;

/** In milliseconds; the harness's default when the flag is not given. */
export function parseCommandTimeout(flag: string | undefined): number {
  if (flag === undefined) return DEFAULT_COMMAND_TIMEOUT_MS;
  const seconds = Number(flag);
  if (!/^\d+$/u.test(flag) || seconds < 1 || seconds > LONGEST_COMMAND_TIMEOUT_S) {
    throw new CliConfigError(
      `--command-timeout must be a whole number of seconds from 1 to ${String(LONGEST_COMMAND_TIMEOUT_S)} (got ${JSON.stringify(flag)})`,
    );
  }
  return seconds * 1000;
}
