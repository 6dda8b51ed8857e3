/**
 * `--request-timeout` and `--retries`, each over its environment variable (the settings file's
 * `requestTimeout` and `retries` arrive as AGENT_REQUEST_TIMEOUT and AGENT_RETRIES,
 * settings-layers.ts): flag > environment > file > default. A blank variable counts as unset.
 */
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from "../../bootstrap.js";
import { CliConfigError } from "../config-error.js";

/** A day: far beyond any reply, and well inside what a timer can hold. */
export const LONGEST_REQUEST_TIMEOUT_S = 86_400;
export const MOST_RETRIES = 10;

/** In milliseconds. */
export function parseRequestTimeout(flag: string | undefined, env: string | undefined): number {
  const raw = flag ?? nonBlank(env);
  if (raw === undefined) return DEFAULT_TIMEOUT_MS;
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/u.test(raw.trim()) || seconds < 1 || seconds > LONGEST_REQUEST_TIMEOUT_S) {
    const name = flag === undefined ? "AGENT_REQUEST_TIMEOUT" : "--request-timeout";
    throw new CliConfigError(
      `${name} must be a number of seconds from 1 to ${String(LONGEST_REQUEST_TIMEOUT_S)} (got ${JSON.stringify(raw)})`,
    );
  }
  return Math.round(seconds * 1000);
}

export function parseRetries(flag: string | undefined, env: string | undefined): number {
  const raw = flag ?? nonBlank(env);
  if (raw === undefined) return DEFAULT_MAX_RETRIES;
  const retries = Number(raw);
  if (!/^\d+$/u.test(raw.trim()) || retries > MOST_RETRIES) {
    const name = flag === undefined ? "AGENT_RETRIES" : "--retries";
    throw new CliConfigError(
      `${name} must be a whole number from 0 to ${String(MOST_RETRIES)} (got ${JSON.stringify(raw)})`,
    );
  }
  return retries;
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
