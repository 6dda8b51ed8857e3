import { ConfigurationError } from "../../core/common/configuration-error.js";

/**
 * The model cannot be set up as asked (missing API key, bad base URL, unreadable replay file): found
 * before any request, and the CLI exits 2 with this one-line message.
 */
export class ModelConfigError extends ConfigurationError {
  override readonly name = "ModelConfigError";
}
