/** A problem with how the agent was started (flag, missing key, bad workspace): exit code 2. */
export class CliConfigError extends Error {
  override readonly name = "CliConfigError";
}
