import { lstatSync, realpathSync, type Stats } from "node:fs";
import path from "node:path";
import { isWithinRoot } from "../filesystem/index.js";
import { CREDENTIAL_PATHS } from "./credential-paths.js";

/**
 * How the sandbox covers the person's credentials (credential-paths.ts) that exist: each by an
 * empty read-only directory, or an empty read-only file (empty-file.ts). The state directory is
 * hidden separately.
 */
export interface CredentialMasks {
  /** Real paths of directories to cover with an empty read-only tmpfs. */
  readonly directories: readonly string[];
  /** Real paths of files to cover with an empty read-only file. */
  readonly files: readonly string[];
}

/**
 * The masks for the credentials that exist under `home` now, minus those the person un-masked
 * (`--sandbox-unmask .npmrc`, relative to the home directory or absolute). A link is masked at its
 * real path, where the mount lands (what is mounted is always empty: nothing is shown there); a
 * link that leads into the workspace is left alone (the workspace is the command's anyway, and a
 * mount there could cover its files), and so is one that leads to neither a file nor a directory
 * (`~/.bash_history -> /dev/null`).
 */
export function credentialMasks(
  home: string | undefined,
  unmasked: readonly string[],
  workspace: string,
): CredentialMasks {
  if (home === undefined) return { directories: [], files: [] };
  const skipped = new Set(unmasked.map((entry) => path.resolve(home, entry)));
  const directories = new Set<string>();
  const files = new Set<string>();
  for (const relative of CREDENTIAL_PATHS) {
    const absolute = path.join(home, relative);
    if (skipped.has(absolute)) continue;
    let real: string;
    let stats: Stats;
    try {
      real = realpathSync.native(absolute);
      stats = lstatSync(real);
    } catch {
      continue; // not there (or gone since): nothing to read
    }
    if (skipped.has(real) || overlaps(real, workspace)) continue;
    if (stats.isDirectory()) directories.add(real);
    else if (stats.isFile()) files.add(real);
  }
  // A mask inside a masked directory (`~/.netrc -> .ssh/netrc`) is covered already, and bwrap could
  // not make the name to mount it on in the read-only tmpfs: the whole sandbox would fail.
  const covered = (real: string): boolean =>
    [...directories].some(
      (directory) => directory !== real && isWithinRoot(directory, real, "linux"),
    );
  return {
    directories: [...directories].filter((directory) => !covered(directory)),
    files: [...files].filter((file) => !covered(file)),
  };
}

/** Known names the person may un-mask: a typo must not leave them thinking one was un-masked. */
export function isCredentialPath(home: string, entry: string): boolean {
  const absolute = path.resolve(home, entry);
  return CREDENTIAL_PATHS.some((relative) => path.join(home, relative) === absolute);
}

/** bwrap runs on Linux only: POSIX paths, compared case-sensitively. */
function overlaps(a: string, b: string): boolean {
  return isWithinRoot(a, b, "linux") || isWithinRoot(b, a, "linux");
}
