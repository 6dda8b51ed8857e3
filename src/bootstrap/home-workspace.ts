/**
 * Chapter 4 writes inside the workspace without asking. In `/`, the home directory or a directory
 * above it, that would let the model rewrite `~/.bashrc` or `~/.ssh/authorized_keys`, which run
 * or grant access at the person's next login: the same workspaces the sandbox refuses to make
 * writable (unsafe-workspace.ts), refused here before the run starts, sandbox or not.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { homeDirectory } from "../adapters/home/index.js";
import { unsafeWorkspace } from "../adapters/sandbox/index.js";
import { ConfigurationError } from "../core/common/configuration-error.js";
import type { Host } from "./host.js";

/** A profile that writes without asking was started where that is unsafe: exit 2. */
export class UnsafeWorkspaceError extends ConfigurationError {
  override readonly name = "UnsafeWorkspaceError";
}

const WHAT = {
  root: "it is /",
  home: "it is your home directory",
  "above-home": "it holds your home directory",
} as const;

/** Throws UnsafeWorkspaceError (exit 2) when chapter 4 must not run in `workspace` (a real path). */
export function assertHomeWorkspaceAllowed(workspace: string, { env, platform }: Host): void {
  const named = homeDirectory(env);
  let home: string;
  try {
    home = realpathSync.native(named);
  } catch {
    home = resolve(named);
  }
  const unsafe = unsafeWorkspace(workspace, home, platform);
  if (unsafe === undefined) return;
  throw new UnsafeWorkspaceError(
    `chapter 4 refuses to work in ${workspace}: ${WHAT[unsafe]}, and chapter 4 writes files ` +
      `there without asking (~/.bashrc, ~/.ssh/authorized_keys run or let someone in at your ` +
      `next login); run the agent in a project directory`,
  );
}
