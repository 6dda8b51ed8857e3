/**
 * The one rule for the person's home directory: `$HOME` as the process (or a test) was given it,
 * else the account's. A blank HOME counts as unset: it would resolve to the current directory, and
 * everything placed under the home (settings, state, the sandbox's masks, the refusal to work in
 * the home itself) would then quietly move.
 */
import { homedir } from "node:os";

export function homeDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const named = env.HOME;
  if (named !== undefined && named.trim() !== "") return named;
  try {
    return homedir();
  } catch {
    // No home at all (an account without one): nothing is placed under it.
    return "";
  }
}
