/**
 * The one workspace resolver: the directory given (`--workspace`, else where the person ran the
 * command, args.ts) as its real path. Every command that works on a workspace takes it from here,
 * so a run, its resume and the commands that answer its approvals name the same directory.
 */
import { realpathSync, statSync } from "node:fs";
import { CliConfigError } from "../config-error.js";

/** Synchronous: start-up has nothing else to do meanwhile, and needs no fs/promises for it. */
export function resolveWorkspace(path: string): string {
  let resolved: string;
  try {
    resolved = realpathSync.native(path);
  } catch {
    throw new CliConfigError(`workspace does not exist: ${path}`);
  }
  if (!statSync(resolved).isDirectory()) {
    throw new CliConfigError(`workspace is not a directory: ${path}`);
  }
  return resolved;
}
