/**
 * The error of a composition that cannot be built (an unknown profile, a dependency the profile
 * needs and was not given): its own file, so every builder can throw it without importing the
 * composition root.
 */
import { ConfigurationError } from "../core/common/configuration-error.js";

export class BootstrapError extends ConfigurationError {
  override readonly name = "BootstrapError";
}
