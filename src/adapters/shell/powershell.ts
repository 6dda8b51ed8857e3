import type { CommandOptions, CommandResult, CommandRunner } from "../../core/command-runner.js";
import { captureOptions, runProcess, type KillTreeStrategy } from "../process/index.js";

export type PowerShellFlavor = "pwsh" | "windows-powershell";

/**
 * Runs before the person's command. PowerShell's own output goes through `Console.Out`, which both
 * .NET runtimes recreate with the new encoding when `[Console]::OutputEncoding` is set (only a
 * `Console.SetOut` writer is kept), and a native program such as `cmd /c echo` writes in the
 * console's output code page, which the same setter changes with `SetConsoleOutputCP`. That console
 * is the child's own: process-runner gives it no inherited stdio and `windowsHide`, so libuv starts
 * it with `CREATE_NO_WINDOW` (a new, hidden console) and the person's console code page (e.g. 936)
 * is never touched. The setter throws "The handle is invalid" on .NET Framework when there is no
 * console at all (a detached child); the `try` keeps that from printing an error into every run.
 * `$OutputEncoding` is what PowerShell pipes to native programs' stdin (ASCII by default on 5.1).
 * PowerShell 7's CLI writes ANSI colours even when redirected (PowerShell issue #20170); plain text
 * is what the model should read. `$PSStyle` does not exist on 5.1, so the `if` skips it there.
 */
export const POWERSHELL_UTF8_PREFIX = [
  "try { [Console]::OutputEncoding = [System.Text.UTF8Encoding]::new($false) } catch { }",
  "$OutputEncoding = [System.Text.UTF8Encoding]::new($false)",
  "if ($PSStyle) { $PSStyle.OutputRendering = 'PlainText' }",
].join("\n");

/**
 * `-Command` collapses every failure to exit 1 (PowerShell issue #13501). Decide the exit code
 * ourselves, from the state right after the person's last statement: the first line reads `$?`
 * before anything resets it. A native program's own non-zero code is kept; a failed cmdlet gives 1;
 * and a native program's stderr redirected inside the command (`2>&1`), which 5.1 and 7.0/7.1 turn
 * into `NativeCommandError` records that set `$?` to false, is not a failure when it exited 0.
 * Strict mode, if the command turned it on, is switched off first: reading an unset `$LASTEXITCODE`
 * (no native program ran) or a missing property would otherwise be an error of our own. The name is
 * module-qualified so a function or alias the command defined cannot stand in for it.
 */
export const POWERSHELL_EXIT_SUFFIX = [
  "$__agentSucceeded = $?",
  "Microsoft.PowerShell.Core\\Set-StrictMode -Off",
  "$__agentNativeCode = $global:LASTEXITCODE",
  "if ($__agentSucceeded) { exit 0 }",
  "if ($__agentNativeCode -is [int] -and $__agentNativeCode -ne 0) { exit $__agentNativeCode }",
  "if ($Error.Count -gt 0 -and $Error[0].FullyQualifiedErrorId -like 'NativeCommandError*') { exit 0 }",
  "exit 1",
].join("\n");

/** The whole `-Command` text: prefix, the command on its own lines, then the exit-code suffix. */
export function buildPowerShellScript(command: string): string {
  // A newline before the command ends the prefix's last statement; the blank line after it keeps a
  // trailing `# comment` or a trailing backtick (line continuation) from swallowing the suffix.
  return `${POWERSHELL_UTF8_PREFIX}\n${command}\n\n${POWERSHELL_EXIT_SUFFIX}`;
}

/**
 * One argv element for the script: Node quotes it for `CreateProcess` with the MSVC rules (embedded
 * `"` as `\"`), which is what both `powershell.exe` and `pwsh` parse back. Never `-EncodedCommand`:
 * 5.1 then writes redirected stderr as CLIXML even with `-OutputFormat Text`. `-Command` is last
 * because everything after it is taken as the command.
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

/**
 * Python's output otherwise follows the (hidden) console's code page, not UTF-8. Without the
 * opt-out, pwsh writes a telemetry id on every run and, where the network is reachable, may send
 * start-up telemetry about the person's machine. With diagnostics on, every .NET process opens a
 * debugger pipe and a diagnostics socket in TMPDIR, which a killed (timed-out) pwsh leaves behind.
 */
export function powerShellEnvironment(
  environment: Readonly<Record<string, string>>,
): Record<string, string> {
  return {
    ...environment,
    PYTHONUTF8: "1",
    PYTHONIOENCODING: "utf-8",
    POWERSHELL_TELEMETRY_OPTOUT: "1",
    DOTNET_EnableDiagnostics: "0",
  };
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
  /** Decided with the shell (shell-selection), not looked up again here. */
  readonly killTree: KillTreeStrategy;
  /** For a .NET tool install: the pwsh.dll that `executable` (a trusted dotnet) runs. */
  readonly entryPoint?: string;
  /** Values replaced by `[redacted]` in the output: the harness's own secrets. */
  readonly secrets?: readonly string[];
}

/** The whole argv after the executable: the tool's pwsh.dll first when there is one. */
export function powerShellCommandArgs(entryPoint: string | undefined, command: string): string[] {
  return [...(entryPoint === undefined ? [] : [entryPoint]), ...buildPowerShellArgs(command)];
}

export class PowerShellRunner implements CommandRunner {
  readonly shellName: string;
  /** Absolute path of the shell binary; shown in diagnostics, checked by tests. */
  readonly executable: string;
  // Follows from the options alone, so it is worked out once, not per command.
  readonly #environment: Readonly<Record<string, string>>;
  readonly #killTree: KillTreeStrategy;
  readonly #entryPoint: string | undefined;
  readonly #secrets: readonly string[];

  constructor(options: PowerShellRunnerOptions) {
    this.executable = options.executable;
    this.#entryPoint = options.entryPoint;
    this.shellName = powerShellDisplayName(options.flavor);
    this.#environment = powerShellEnvironment(options.environment);
    this.#killTree = options.killTree;
    this.#secrets = options.secrets ?? [];
  }

  run(command: string, cwd: string, options: CommandOptions): Promise<CommandResult> {
    return runProcess({
      executable: this.executable,
      args: powerShellCommandArgs(this.#entryPoint, command),
      cwd,
      env: this.#environment,
      timeoutMs: options.timeoutMs,
      maxOutputBytes: options.maxOutputBytes,
      ...captureOptions(options, this.#secrets),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onOutput === undefined ? {} : { onOutput: options.onOutput }),
      killTree: this.#killTree,
      // On the host nothing else ends the command with a harness killed by `kill -9`.
      guardAgainstOrphans: true,
    });
  }
}
