/**
 * The variables that name the certificate authorities to trust (a company's TLS proxy, say):
 * not secrets, and without them every download behind such a proxy fails with
 * `SELF_SIGNED_CERT_IN_CHAIN`. The harness passes them itself when a command can reach the
 * network (never through `--pass-env`, which refuses `*_FILE`, `*_DIR` and `GIT_*` names by kind),
 * and only when what they name is an absolute path the command can read.
 */
import { statSync } from "node:fs";
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
  /** The variables passed, as the host has them. */
  readonly environment: Readonly<Record<string, string>>;
  /** Those set on the host but not passed, each with why: for a notice at start. */
  readonly withheld: readonly string[];
}

/**
 * The CA variables of `hostEnv` whose every path (SSL_CERT_DIR may list several, `:`-separated)
 * is absolute, exists as the kind it should (a directory for SSL_CERT_DIR, else a file) and is
 * `visible` to the command (the sandbox's private /tmp, say, would hide one).
 */
export function caBundleEnvironment(
  hostEnv: Readonly<Record<string, string | undefined>>,
  visible: (path: string) => boolean = () => true,
): CaBundles {
  const environment: Record<string, string> = {};
  const withheld: string[] = [];
  for (const name of CA_BUNDLE_NAMES) {
    const value = hostEnv[name];
    if (value === undefined || value.trim() === "") continue;
    const paths =
      name === "SSL_CERT_DIR" ? value.split(":").filter((part) => part !== "") : [value];
    const problem = paths
      .map((path) => pathProblem(path, name === "SSL_CERT_DIR", visible))
      .find((found) => found !== undefined);
    if (problem === undefined) environment[name] = value;
    else withheld.push(`${name} (${problem})`);
  }
  return { environment, withheld };
}

function pathProblem(
  path: string,
  directory: boolean,
  visible: (path: string) => boolean,
): string | undefined {
  if (!isAbsolute(path)) return "not an absolute path";
  try {
    const stats = statSync(path);
    if (directory ? !stats.isDirectory() : !stats.isFile()) {
      return directory ? "not a directory" : "not a file";
    }
  } catch {
    return "it does not exist";
  }
  return visible(path) ? undefined : "not visible in the sandbox";
}
