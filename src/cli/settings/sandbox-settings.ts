/**
 * The sandbox's settings from the command line: resource limits and credentials to un-mask. A
 * value that is not one is a configuration error (exit 2), never a silently kept default.
 */
import {
  CREDENTIAL_PATHS,
  parseResourceLimits,
  ResourceLimitError,
  type ResourceLimits,
} from "../../bootstrap.js";
import { CliConfigError } from "../config-error.js";

/** `--sandbox-limit` values win over $AGENT_SANDBOX_LIMITS (`memory=8GiB,processes=256`). */
export function sandboxLimits(
  flags: readonly string[] | undefined,
  fromEnv: string | undefined,
): ResourceLimits {
  const envSettings = (fromEnv ?? "")
    .split(",")
    .map((setting) => setting.trim())
    .filter((setting) => setting !== "");
  // The variable alone first, so a bad value there is named as its own, not as a flag's.
  limitsOrConfigError("AGENT_SANDBOX_LIMITS", () => parseResourceLimits(envSettings));
  return limitsOrConfigError("--sandbox-limit", () =>
    parseResourceLimits([...envSettings, ...(flags ?? [])]),
  );
}

function limitsOrConfigError(source: string, parse: () => ResourceLimits): ResourceLimits {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ResourceLimitError)) throw error;
    throw new CliConfigError(error.message.replace("--sandbox-limit", source));
  }
}

/**
 * `~/.npmrc`, `.npmrc` or `.config/gh`: one of the masked paths, relative to the home directory.
 * An unquoted `~/.npmrc` reaches us as the shell expanded it, `$HOME/.npmrc` (`$USERPROFILE` on
 * Windows), and is taken as written. A name not on the list is refused, so a typo cannot leave
 * the person believing it was un-masked.
 */
export function sandboxUnmask(
  entries: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): string[] {
  const homes = [env.HOME, env.USERPROFILE]
    .filter((home): home is string => home !== undefined && home.trim() !== "")
    .map((home) => home.replaceAll("\\", "/").replace(/\/+$/, ""));
  return entries.map((entry) => {
    const slashed = entry.replaceAll("\\", "/");
    const home = homes.find((candidate) => slashed.startsWith(`${candidate}/`));
    const underHome = home === undefined ? slashed : slashed.slice(home.length + 1);
    const relative = underHome.replace(/^~\//, "").replace(/\/+$/, "");
    if (!CREDENTIAL_PATHS.includes(relative)) {
      throw new CliConfigError(
        `--sandbox-unmask takes one of the masked paths (${CREDENTIAL_PATHS.slice(0, 6).join(", ")}, … see docs/sandbox.md), relative to your home directory (got ${JSON.stringify(entry)})`,
      );
    }
    return relative;
  });
}
