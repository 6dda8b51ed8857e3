/**
 * A problem with how the agent was started or set up (a flag, a missing key, an unusable harness
 * file, state directory, allowlist or journal), found before or outside the run's tool path: the
 * CLI reports its message on one line and exits 2. Every such error extends this, so the CLI asks
 * one question instead of keeping a list; each keeps its own name and message.
 */
export class ConfigurationError extends Error {
  override readonly name: string = "ConfigurationError";
}
