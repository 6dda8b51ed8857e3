import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { resolveExecutable } from "../../src/adapters/shell/executable-resolution.js";

/**
 * Where a program a test needs lives on this machine's PATH (undefined: not there), found the way
 * the harness finds it. The workspace does not exist, so a relative PATH entry never matches.
 */
export function hostExecutable(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  return resolveExecutable(name, {
    env,
    workspace: "/nonexistent-workspace",
    platform: process.platform,
  });
}

/** bubblewrap, looked for on Linux only. */
export const BWRAP = process.platform === "linux" ? hostExecutable("bwrap") : undefined;

const DOTNET_TOOLS = join(homedir(), ".dotnet", "tools");
const PWSH_NAME = process.platform === "win32" ? "pwsh.exe" : "pwsh";

/**
 * The environment PowerShell tests hand the harness: this process's, plus `~/.dotnet/tools` at the
 * end of PATH when pwsh is not on PATH but `dotnet tool install --global PowerShell` put it there
 * (the .NET SDK's installer adds that folder to PATH only for login shells). The harness itself
 * still finds pwsh only on PATH; the tests just do what the README tells a person to do.
 */
export const POWERSHELL_TEST_ENV: NodeJS.ProcessEnv =
  hostExecutable(PWSH_NAME) === undefined && existsSync(join(DOTNET_TOOLS, PWSH_NAME))
    ? { ...process.env, PATH: [process.env.PATH, DOTNET_TOOLS].filter(Boolean).join(delimiter) }
    : process.env;

/** pwsh on PATH or in ~/.dotnet/tools; undefined where neither has it. */
export const PWSH = hostExecutable(PWSH_NAME, POWERSHELL_TEST_ENV);

/** Why PowerShell tests skip, for their names. */
export const POWERSHELL_MISSING = `needs pwsh on PATH or in ${DOTNET_TOOLS}`;
