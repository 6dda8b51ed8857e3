import { ConfigurationError } from "../core/common/configuration-error.js";

/** A problem with how the agent was started (flag, missing key, bad workspace): exit code 2. */
export class CliConfigError extends ConfigurationError {
  override readonly name = "CliConfigError";
}
