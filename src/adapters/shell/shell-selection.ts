import type { CommandRunner } from "../../core/command-runner.js";
import { buildCommandEnvironment } from "./command-environment.js";
import {
  resolveExecutable,
  resolveWindowsPowerShell,
  type ExecutableLookup,
} from "./executable-resolution.js";
import { PosixShellRunner, type PosixShellKind } from "./posix-shell.js";
import { PowerShellRunner } from "./powershell.js";

export type ShellChoice = "auto" | "powershell" | "posix";

/** A shell was asked for (or none at all exists): a configuration error, exit code 2. */
export class ShellUnavailableError extends Error {
  override readonly name = "ShellUnavailableError";
}

/** `env`, `workspace`, `platform` and `probe` are the executable lookup's own options. */
export const NO_POSIX_SHELL =
  "A POSIX shell was requested (--shell posix) but neither bash nor sh was found on PATH";

export interface ShellSelectionOptions extends ExecutableLookup {
  readonly choice: ShellChoice;
  /** Extra names (`--pass-env`) let through to commands from `env`'s allowlisted part. */
  readonly passEnv: readonly string[];
}

/** auto: pwsh, else Windows PowerShell (on Windows), else bash, else sh. */
export function selectCommandRunner(options: ShellSelectionOptions): CommandRunner {
  const environment = buildCommandEnvironment(options.env, {
    passEnv: options.passEnv,
    platform: options.platform,
  });
  const powerShell = (): CommandRunner | undefined => findPowerShell(options, environment);
  const posix = (): CommandRunner | undefined => findPosixShell(options, environment);
  switch (options.choice) {
    case "powershell":
      return powerShell() ?? fail(missingPowerShell(options.platform));
    case "posix":
      return posix() ?? fail(NO_POSIX_SHELL);
    case "auto":
      return (
        powerShell() ??
        posix() ??
        fail(
          options.platform === "win32"
            ? "No shell found: neither pwsh, powershell.exe, bash nor sh is on PATH"
            : "No shell found: neither pwsh, bash nor sh is on PATH",
        )
      );
  }
}

function findPowerShell(
  lookup: ExecutableLookup,
  environment: Readonly<Record<string, string>>,
): CommandRunner | undefined {
  const windows = lookup.platform === "win32";
  const pwsh = resolveExecutable(windows ? "pwsh.exe" : "pwsh", lookup);
  if (pwsh !== undefined) {
    return new PowerShellRunner({
      executable: pwsh,
      flavor: "pwsh",
      environment,
      platform: lookup.platform,
    });
  }
  if (!windows) return undefined;
  const windowsPowerShell =
    resolveExecutable("powershell.exe", lookup) ?? resolveWindowsPowerShell(lookup);
  if (windowsPowerShell === undefined) return undefined;
  return new PowerShellRunner({
    executable: windowsPowerShell,
    flavor: "windows-powershell",
    environment,
    platform: lookup.platform,
  });
}

function findPosixShell(
  lookup: ExecutableLookup,
  environment: Readonly<Record<string, string>>,
): CommandRunner | undefined {
  const shell = findPosixShellExecutable(lookup);
  if (shell === undefined) return undefined;
  return new PosixShellRunner({ ...shell, environment, platform: lookup.platform });
}

/** bash, else sh, on the trusted PATH; the sandbox runs the same one inside bwrap. */
export function findPosixShellExecutable(
  lookup: ExecutableLookup,
): { readonly executable: string; readonly kind: PosixShellKind } | undefined {
  for (const kind of ["bash", "sh"] as const) {
    // Only a real .exe on Windows: Node refuses to spawn .bat/.cmd without a shell.
    const name = lookup.platform === "win32" ? `${kind}.exe` : kind;
    const executable = resolveExecutable(name, lookup);
    if (executable !== undefined) return { executable, kind };
  }
  return undefined;
}

function missingPowerShell(platform: NodeJS.Platform): string {
  return platform === "win32"
    ? "PowerShell was requested (--shell powershell) but neither pwsh nor powershell.exe was found on PATH"
    : "PowerShell was requested (--shell powershell) but pwsh was not found on PATH";
}

function fail(message: string): never {
  throw new ShellUnavailableError(message);
}
