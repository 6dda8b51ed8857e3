/**
 * What the person hears about `--pass-env NAME` that will not reach commands: a name that looks
 * like a credential, or one that configures the shell itself (`BASH_ENV`, `ENV`, `IFS`…), is
 * dropped by buildCommandEnvironment whatever was asked, and an unset one
 * has nothing to pass. Said once per name, before the run, rather than leaving a command to fail
 * later for a variable it was promised.
 */
import { looksLikeSecret, SECRET_PARTS, SECRET_PREFIXES } from "./command-environment.js";
import { isShellStartupName } from "./shell-startup-names.js";

export function passEnvNotices(
  passEnv: readonly string[],
  hostEnv: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): string[] {
  const fold = (name: string): string => (platform === "win32" ? name.toUpperCase() : name);
  const set = new Set(
    Object.entries(hostEnv)
      .filter(([, value]) => value !== undefined)
      .map(([name]) => fold(name)),
  );
  const notices: string[] = [];
  for (const name of new Set(passEnv)) {
    if (looksLikeSecret(name)) {
      notices.push(
        `--pass-env ${name} is not passed: it looks like a credential (its name has ${oneOf(SECRET_PARTS)}, or begins with ${oneOf(SECRET_PREFIXES)}), and those never reach commands`,
      );
    } else if (isShellStartupName(name)) {
      notices.push(
        `--pass-env ${name} is not passed: it configures the shell itself (a startup file, functions or options), which could run a file from the workspace before every command, and those never reach commands`,
      );
    } else if (!set.has(fold(name))) {
      notices.push(`--pass-env ${name} is not passed: it is not set in this environment`);
    }
  }
  return notices;
}

/** `A, B or C`. */
function oneOf(words: readonly string[]): string {
  return words.length < 2
    ? words.join("")
    : `${words.slice(0, -1).join(", ")} or ${words.at(-1) ?? ""}`;
}
