import { resolveExecutable } from "../../src/adapters/shell/executable-resolution.js";

/**
 * Where a program a test needs lives on this machine's PATH (undefined: not there), found the way
 * the harness finds it. The workspace does not exist, so a relative PATH entry never matches.
 */
export function hostExecutable(name: string): string | undefined {
  return resolveExecutable(name, {
    env: process.env,
    workspace: "/nonexistent-workspace",
    platform: process.platform,
  });
}

/** bubblewrap, looked for on Linux only. */
export const BWRAP = process.platform === "linux" ? hostExecutable("bwrap") : undefined;
