/**
 * The variables that name the certificate authorities to trust (a company's TLS proxy, say):
 * not secrets, and without them every download behind such a proxy fails with
 * `SELF_SIGNED_CERT_IN_CHAIN`. The harness passes them itself when a command can reach the
 * network (never through `--pass-env`, which refuses `*_FILE`, `*_DIR` and `GIT_*` names by kind),
 * and only when what they name is an absolute path the command can read.
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";

export const CA_BUNDLE_NAMES = [
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "GIT_SSL_CAINFO",
] as const;

export interface CaBundles {
  /** The variables passed: as the host has them, or their real paths for the sandbox. */
  readonly environment: Readonly<Record<string, string>>;
  /** Those set on the host but not passed, each with why: for a notice at start. */
  readonly withheld: readonly string[];
}

/**
 * Why a command could not trust the file at a real path, or undefined when it reads there what
 * the host has and cannot change it (the sandbox: host-file-reach.ts).
 */
export type RealPathCheck = (real: string) => string | undefined;

/**
 * The CA variables of `hostEnv` whose every path (SSL_CERT_DIR may list several, `:`-separated)
 * is absolute and exists as the kind it should (a directory for SSL_CERT_DIR, else a file).
 * With `sandboxed`, each path is resolved to its real path first, checked there, and passed as
 * that real path: a link the sandbox would not show (on its private /tmp), or one a command could
 * point elsewhere (in the workspace), then never stands between the variable and the file.
 */
export function caBundleEnvironment(
  hostEnv: Readonly<Record<string, string | undefined>>,
  sandboxed?: RealPathCheck,
): CaBundles {
  const environment: Record<string, string> = {};
  const withheld: string[] = [];
  for (const name of CA_BUNDLE_NAMES) {
    const value = hostEnv[name];
    if (value === undefined || value.trim() === "") continue;
    const directory = name === "SSL_CERT_DIR";
    const paths = directory ? value.split(":").filter((part) => part !== "") : [value];
    const reals: string[] = [];
    let problem: string | undefined;
    for (const path of paths) {
      const checked = checkedPath(path, directory, sandboxed);
      if (checked.problem !== undefined) {
        problem = checked.problem;
        break;
      }
      reals.push(checked.real);
    }
    if (problem !== undefined) withheld.push(`${name} (${problem})`);
    else environment[name] = sandboxed === undefined ? value : reals.join(":");
  }
  return { environment, withheld };
}

function checkedPath(
  path: string,
  directory: boolean,
  sandboxed: RealPathCheck | undefined,
): { readonly real: string; readonly problem?: undefined } | { readonly problem: string } {
  if (!isAbsolute(path)) return { problem: "not an absolute path" };
  let real: string;
  try {
    real = realpathSync.native(path);
    const stats = statSync(real);
    if (directory ? !stats.isDirectory() : !stats.isFile()) {
      return { problem: directory ? "not a directory" : "not a file" };
    }
  } catch {
    return { problem: "it does not exist" };
  }
  const problem = sandboxed?.(real);
  return problem === undefined ? { real } : { problem };
}
