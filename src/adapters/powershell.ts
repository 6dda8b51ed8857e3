import type { CommandOptions, CommandResult, CommandRunner } from "../core/command-runner.js";
import { killTreeStrategyFor, runProcess } from "./process-runner.js";

export type PowerShellFlavor = "pwsh" | "windows-powershell";

/**
 * UTF-8 without a BOM for everything the script prints and pipes to native programs. Setting
 * `[Console]::OutputEncoding` changes the code page of the console the child is attached to; the
 * child runs with no inherited stdio and `windowsHide`, so it gets a hidden console of its own and
 * the person's console (e.g. code page 936) is left exactly as it was, even when the run is killed.
 */
export const POWERSHELL_UTF8_PREFIX =
  "[Console]::OutputEncoding = [System.Text.UTF8Encoding]::new($false); " +
  "$OutputEncoding = [Console]::OutputEncoding";

/**
 * `-Command` collapses every failure to exit 1. Decide the exit code ourselves, from the state
 * right after the person's last statement (the first line here reads `$?` before anything resets
 * it): a native program's own non-zero code is kept; a failed cmdlet gives 1; and Windows
 * PowerShell 5.1 marking a native program's stderr lines as errors (`NativeCommandError`) is not a
 * failure when that program exited 0.
 */
export const POWERSHELL_EXIT_SUFFIX = [
  "$__agentSucceeded = $?",
  "$__agentNativeCode = $global:LASTEXITCODE",
  "if ($__agentSucceeded) { exit 0 }",
  "if ($__agentNativeCode -is [int] -and $__agentNativeCode -ne 0) { exit $__agentNativeCode }",
  "if ($Error.Count -gt 0 -and $Error[0].FullyQualifiedErrorId -like 'NativeCommandError*') { exit 0 }",
  "exit 1",
].join("\n");

/** The whole `-Command` text: prefix, the command on its own lines, then the exit-code suffix. */
export function buildPowerShellScript(command: string): string {
  // Newlines around the command keep a trailing `# comment` from swallowing the suffix.
  return `${POWERSHELL_UTF8_PREFIX}\n${command}\n${POWERSHELL_EXIT_SUFFIX}`;
}

/**
 * Never `-EncodedCommand`: on 5.1 it turns redirected stderr into CLIXML. `-OutputFormat Text`
 * keeps the output plain text for the same reason.
 */
export function buildPowerShellArgs(command: string): string[] {
  return [
    "-NoLogo",
    "-NoProfile",
    "-NonInteractive",
    "-OutputFormat",
    "Text",
    "-Command",
    buildPowerShellScript(command),
  ];
}

/** Python's output otherwise follows the (hidden) console's code page, not UTF-8. */
export function powerShellEnvironment(
  environment: Readonly<Record<string, string>>,
): Record<string, string> {
  return { ...environment, PYTHONUTF8: "1", PYTHONIOENCODING: "utf-8" };
}

export function powerShellDisplayName(flavor: PowerShellFlavor): string {
  return flavor === "pwsh" ? "PowerShell 7" : "Windows PowerShell";
}

export interface PowerShellRunnerOptions {
  /** Absolute path to pwsh(.exe) or powershell.exe, from executable-resolution. */
  readonly executable: string;
  readonly flavor: PowerShellFlavor;
  /** The allowlisted environment from command-environment. */
  readonly environment: Readonly<Record<string, string>>;
  readonly platform: NodeJS.Platform;
}

export class PowerShellRunner implements CommandRunner {
  readonly shellName: string;
  /** Absolute path of the shell binary; shown in diagnostics, checked by tests. */
  readonly executable: string;
  readonly #options: PowerShellRunnerOptions;

  constructor(options: PowerShellRunnerOptions) {
    this.#options = options;
    this.executable = options.executable;
    this.shellName = powerShellDisplayName(options.flavor);
  }

  run(command: string, cwd: string, options: CommandOptions): Promise<CommandResult> {
    const environment = powerShellEnvironment(this.#options.environment);
    return runProcess({
      executable: this.#options.executable,
      args: buildPowerShellArgs(command),
      cwd,
      env: environment,
      timeoutMs: options.timeoutMs,
      maxOutputBytes: options.maxOutputBytes,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      killTree: killTreeStrategyFor(this.#options.platform, environment),
    });
  }
}
