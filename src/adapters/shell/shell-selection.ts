/**
 * The one place that chooses a shell. Read top to bottom: the person's choice and the platform
 * pick the candidates, the trusted PATH finds the executable, and the result carries everything a
 * runner needs (executable, flavour, allowlisted environment, how to kill its tree), so no runner
 * looks the platform or PATH up again.
 */
import type { CommandRunner } from "../../core/ports/command-runner.js";
import { killTreeStrategyFor, type KillTreeStrategy } from "../process/index.js";
import { buildCommandEnvironment, knownSecrets } from "./command-environment.js";
import { findDotnetToolPowerShell } from "./dotnet-tool.js";
import {
  resolveExecutable,
  resolveWindowsPowerShell,
  type ExecutableLookup,
} from "./executable-resolution.js";
import { PosixShellRunner, type PosixShellKind } from "./posix-shell.js";
import { PowerShellRunner, powerShellDisplayName, type PowerShellFlavor } from "./powershell.js";
import { ConfigurationError } from "../../core/common/configuration-error.js";

export type ShellChoice = "auto" | "powershell" | "posix";

/** A shell was asked for (or none at all exists): a configuration error, exit code 2. */
export class ShellUnavailableError extends ConfigurationError {
  override readonly name = "ShellUnavailableError";
}

export const NO_POSIX_SHELL =
  "A POSIX shell was requested (--shell posix) but neither bash nor sh was found on PATH";

/** `env`, `workspace`, `platform` and `probe` are the executable lookup's own options. */
export interface ShellSelectionOptions extends ExecutableLookup {
  readonly choice: ShellChoice;
  /** Extra names (`--pass-env`) let through to commands from `env`'s allowlisted part. */
  readonly passEnv: readonly string[];
  /**
   * Variables the harness itself adds to the allowlisted environment, decided by where commands
   * run (the CA bundles when the network is on: ca-bundle-environment.ts).
   */
  readonly extraEnvironment?: Readonly<Record<string, string>>;
}

/** The decision, complete: a runner is built from this and nothing else. */
export type ShellPlan = PosixShellPlan | PowerShellPlan;
export type PosixShellPlan = PlanBase & { readonly family: "posix"; readonly kind: PosixShellKind };
export type PowerShellPlan = PlanBase & {
  readonly family: "powershell";
  readonly flavor: PowerShellFlavor;
  /**
   * Set for PowerShell installed as a .NET tool: `executable` is then the trusted `dotnet` and this
   * is the pwsh.dll it runs (the tool's shim is never started; see dotnet-tool.ts).
   */
  readonly entryPoint?: string;
};

interface PlanBase {
  /** Absolute path, found on the trusted part of PATH (never inside the workspace). */
  readonly executable: string;
  /** The allowlisted environment: never the harness's own, so no key leaks to a command. */
  readonly environment: Readonly<Record<string, string>>;
  /** Values replaced by `[redacted]` in every command's output (see `knownSecrets`). */
  readonly secrets: readonly string[];
  readonly killTree: KillTreeStrategy;
}

/**
 * auto on Windows: pwsh, else Windows PowerShell, else bash, else sh. auto elsewhere: bash, else
 * sh — what people there expect, and what the sandbox confines; PowerShell only when asked for.
 */
export function planShell(options: ShellSelectionOptions): ShellPlan {
  const found = findShell(options);
  const environment = {
    ...buildCommandEnvironment(options.env, {
      passEnv: options.passEnv,
      platform: options.platform,
    }),
    ...options.extraEnvironment,
  };
  return {
    ...found,
    environment,
    secrets: knownSecrets(options.env),
    killTree: killTreeStrategyFor(options.platform, environment),
  };
}

/**
 * The name the runner planShell's plan makes would have (`bash`, `PowerShell 7`, …), found the
 * same way, without building the environment and the secrets' encoded forms it would also need.
 */
export function plannedShellName(options: ShellSelectionOptions): string {
  const found = findShell(options);
  return found.family === "posix" ? found.kind : powerShellDisplayName(found.flavor);
}

type FoundShell =
  | { readonly family: "posix"; readonly executable: string; readonly kind: PosixShellKind }
  | {
      readonly family: "powershell";
      readonly executable: string;
      readonly flavor: PowerShellFlavor;
      readonly entryPoint?: string;
    };

/** The shell the choice names, on the trusted PATH; none at all is a configuration error. */
function findShell(options: ShellSelectionOptions): FoundShell {
  const powerShell = (): FoundShell | undefined => {
    const found = findPowerShell(options);
    return found === undefined ? undefined : { family: "powershell", ...found };
  };
  const posix = (): FoundShell | undefined => {
    const found = findPosixShellExecutable(options);
    return found === undefined ? undefined : { family: "posix", ...found };
  };
  switch (options.choice) {
    case "powershell":
      return powerShell() ?? fail(missingPowerShell(options.platform));
    case "posix":
      return posix() ?? fail(NO_POSIX_SHELL);
    case "auto":
      return options.platform === "win32"
        ? (powerShell() ??
            posix() ??
            fail("No shell found: neither pwsh, powershell.exe, bash nor sh is on PATH"))
        : (posix() ?? fail("No shell found: neither bash nor sh is on PATH"));
  }
}

export function createShellRunner(plan: ShellPlan): CommandRunner {
  switch (plan.family) {
    case "posix":
      return new PosixShellRunner(plan);
    case "powershell":
      return new PowerShellRunner(plan);
  }
}

/** bash, else sh: what the sandbox runs. None at all is a configuration error. */
export function planPosixShell(options: Omit<ShellSelectionOptions, "choice">): PosixShellPlan {
  const plan = planShell({ ...options, choice: "posix" });
  // planShell's "posix" branch yields a POSIX plan or throws; this only tells the compiler.
  if (plan.family !== "posix") throw new Error("planShell ignored the posix choice");
  return plan;
}

/** pwsh (or Windows PowerShell): what the sandbox runs for `--shell powershell`. */
export function planPowerShell(options: Omit<ShellSelectionOptions, "choice">): PowerShellPlan {
  const plan = planShell({ ...options, choice: "powershell" });
  // As in planPosixShell: the "powershell" branch yields a PowerShell plan or throws.
  if (plan.family !== "powershell") throw new Error("planShell ignored the powershell choice");
  return plan;
}

/** The shell the person chose (or auto), as a runner on the host. */
export function selectCommandRunner(options: ShellSelectionOptions): CommandRunner {
  return createShellRunner(planShell(options));
}

function findPowerShell(
  lookup: ExecutableLookup,
):
  | { readonly executable: string; readonly flavor: PowerShellFlavor; readonly entryPoint?: string }
  | undefined {
  const windows = lookup.platform === "win32";
  const pwsh = resolveExecutable(windows ? "pwsh.exe" : "pwsh", lookup);
  if (pwsh !== undefined) {
    const tool = findDotnetToolPowerShell(pwsh, lookup);
    if (tool === undefined) return { executable: pwsh, flavor: "pwsh" };
    // A shim we cannot run safely is no pwsh at all (Windows PowerShell may still be there).
    if (tool !== "unusable") {
      return { executable: tool.dotnet, entryPoint: tool.entryPoint, flavor: "pwsh" };
    }
  }
  if (!windows) return undefined;
  const windowsPowerShell =
    resolveExecutable("powershell.exe", lookup) ?? resolveWindowsPowerShell(lookup);
  return windowsPowerShell === undefined
    ? undefined
    : { executable: windowsPowerShell, flavor: "windows-powershell" };
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
