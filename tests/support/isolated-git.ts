import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { vi } from "vitest";

/**
 * `git init` of `workspace` with git's global and system configuration pointed into `base`, so the
 * person's own config (a `core.hooksPath`, an `includeIf`) cannot decide a case. Undone by
 * `vi.unstubAllEnvs()`.
 */
export function initIsolatedRepository(base: string, workspace: string): void {
  vi.stubEnv("GIT_CONFIG_GLOBAL", join(base, "global.gitconfig"));
  vi.stubEnv("GIT_CONFIG_SYSTEM", join(base, "system.gitconfig"));
  vi.stubEnv("GIT_CONFIG_NOSYSTEM", "1");
  execFileSync("git", ["init", "-q", workspace]);
}
