/**
 * What the person hears about `--pass-env NAME` that will not reach commands: a name that looks
 * like a credential, or one of a kind that makes a program load code or configuration (the shell's
 * `BASH_ENV`, a loader's `LD_*`, a runtime's `NODE_OPTIONS`, … see loading-variables.ts), is
 * dropped by buildCommandEnvironment whatever was asked, with which kind and why; and an unset
 * one has nothing to pass. Said once per name, before the run, rather than leaving a command to
 * fail later for a variable it was promised. A name every command gets anyway is not mentioned.
 */
import {
  isDefaultCommandName,
  looksLikeSecret,
  SECRET_PARTS,
  SECRET_PREFIXES,
} from "./command-environment.js";
import { loadingKind } from "./loading-variables.js";

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
    // A name every command gets anyway (`PATH`) is of no refused kind, whatever its shape.
    const kind = isDefaultCommandName(name, platform) ? undefined : loadingKind(name);
    if (looksLikeSecret(name)) {
      notices.push(
        `--pass-env ${name} is not passed: it looks like a credential (its name has ${oneOf(SECRET_PARTS)}, or begins with ${oneOf(SECRET_PREFIXES)}), and those never reach commands`,
      );
    } else if (kind !== undefined) {
      notices.push(
        `--pass-env ${name} is not passed: it ${kind.why}, and those never reach commands`,
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
