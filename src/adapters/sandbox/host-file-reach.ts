import { realpathSync } from "node:fs";
import { isWithinRoot } from "../filesystem/index.js";
import { credentialMasks } from "./credential-masks.js";

/**
 * Where the sandbox does not show a host file as it is (bubblewrap-args.ts builds it this way):
 * its own /tmp, /run, /dev and /proc cover the host's, and the state directory and the person's
 * credentials are covered by empty ones. Everything else is the host's root, bound read-only.
 */
const COVERED_MOUNTS = ["/tmp", "/run", "/dev", "/proc"];

export interface HostFileReachOptions {
  readonly workspace: string;
  readonly home: string | undefined;
  /** Real paths the sandbox hides (the state directory). */
  readonly hiddenPaths: readonly string[];
  /** Credentials left readable (`--sandbox-unmask`). */
  readonly unmasked: readonly string[];
}

/**
 * Why a sandboxed command could not trust a host file at this real path (symbolic links already
 * resolved), or undefined when it reads there exactly what the host has, read-only:
 * - inside the workspace, which commands may change (a certificate planted there would let
 *   a command's own traffic be intercepted);
 * - covered by one of the sandbox's own mounts, so not visible as the host has it.
 */
export function hostFileReach(options: HostFileReachOptions): (real: string) => string | undefined {
  const workspace = realOrSelf(options.workspace);
  const home = options.home === undefined ? undefined : realOrSelf(options.home);
  const masks = credentialMasks(home, options.unmasked, workspace);
  const covered = [...COVERED_MOUNTS, ...options.hiddenPaths, ...masks.directories, ...masks.files];
  return (real) => {
    if (isWithinRoot(workspace, real, "linux")) {
      return "inside the workspace, which commands can change";
    }
    return covered.some((root) => isWithinRoot(root, real, "linux"))
      ? "not visible in the sandbox"
      : undefined;
  };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
