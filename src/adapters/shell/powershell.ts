import type {
  CommandOptions,
  CommandResult,
  CommandRunner,
} from "../../core/ports/command-runner.js";
import { environmentNamesOf } from "../../core/ports/command-runner.js";
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
 * stdout and stderr reach the harness through two pipes, and a fast writer fills both before the
 * harness reads either: an error then came after all the output instead of after the line it
 * followed. PowerShell's own stderr (error records from `Out-Default`, `[Console]::Error`) is
 * written instead to stdout, each line marked `[stderr] ` as the harness marks stderr, so it
 * arrives in the order it was written. A native program's stderr is its own descriptor, the pipe.
 * A class of PowerShell's own (5.1 has them): `Add-Type` would start the C# compiler on every run.
 * Whole pieces between newlines are passed on, not characters: a script method call per
 * character would make a long error slow.
 */
export const POWERSHELL_STDERR_IN_ORDER = [
  "class AgentStderrInOrder : System.IO.StringWriter {",
  "  hidden [System.IO.TextWriter] $Target",
  "  hidden [bool] $LineStart = $true",
  "  AgentStderrInOrder([System.IO.TextWriter] $target) { $this.Target = $target }",
  "  [void] Write([string] $text) {",
  "    if ([string]::IsNullOrEmpty($text)) { return }",
  "    $parts = $text.Split([char]10)",
  "    for ($i = 0; $i -lt $parts.Length; $i++) {",
  "      if ($i -gt 0) { $this.Target.Write([char]10); $this.LineStart = $true }",
  "      if ($parts[$i].Length -gt 0) {",
  "        if ($this.LineStart) { $this.Target.Write('[stderr] ') }",
  "        $this.Target.Write($parts[$i]); $this.LineStart = $false",
  "      }",
  "    }",
  "  }",
  "  [void] Write([char] $char) { $this.Write([string]$char) }",
  "  [void] Write([char[]] $chars, [int] $index, [int] $count) { $this.Write([string]::new($chars, $index, $count)) }",
  "  [void] WriteLine() { $this.Write($this.NewLine) }",
  "  [void] WriteLine([string] $text) { $this.Write($text); $this.Write($this.NewLine) }",
  "  [void] Flush() { $this.Target.Flush() }",
  "}",
  "[Console]::SetError([AgentStderrInOrder]::new([Console]::Out))",
].join("\n");

/**
 * Runs the person's command. `-Command` hands its text to the host, which pipes it to `Out-Default`
 * and formats objects (tables, lists) only when that pipeline ends; our `exit` used to end it
 * first, so a `PathInfo` or a `Select-Object` table was never printed. Here the command runs as a
 * script block of its own, piped to its own `Out-Default`, which has printed everything before the
 * exit code is decided. Its errors are merged into that pipeline (`2>&1`), as the host merges them
 * for `-Command`, so an error follows the table printed before it; `Out-Default` still writes
 * error records to stderr.
 *
 * - The text arrives as base64 UTF-8: no quoting rule (PowerShell also takes ‘’‚‛ as quotes) can
 *   be got wrong. It is parsed alone first, so a syntax error is reported as pwsh's `ParserError`
 *   at the command's own line, and nothing runs. pwsh says nothing at all about incomplete input
 *   (an unclosed `{`, a trailing backtick), as if waiting for more lines, and exits 1; the model
 *   is told what is missing before that.
 * - Built from the command's text alone, the block counts lines from the command's first line, so
 *   an error record says "Line 2" for the command's second line, not for ours. It is started from a
 *   one-line block of its own: `Write-Error` reports where its script was started, and pwsh shows
 *   no position for line 1, as for a command run alone.
 * - The line after the command, in the same block and scope, keeps `$?` of its last statement: a
 *   script block's own `$?` is always true. The blank line before it keeps a trailing `# comment`
 *   from swallowing it (a trailing backtick is incomplete input, refused above).
 * - Dot-sourced, so the command runs in the global scope, as it does alone. `Out-Default` is
 *   module-qualified so a function the command defines cannot stand in for it.
 */
export function powerShellRunCommand(command: string): string {
  const encoded = Buffer.from(command, "utf8").toString("base64");
  return [
    `$__agentText = [System.Text.Encoding]::UTF8.GetString([System.Convert]::FromBase64String('${encoded}'))`,
    "try { $null = [scriptblock]::Create($__agentText) } catch { $__agentParse = $_.Exception.InnerException; if ($__agentParse.Errors[0].IncompleteInput) { Write-Error -Message $__agentParse.Message -CategoryActivity ParserError }; throw $__agentParse }",
    `$__agentCommand = [scriptblock]::Create($__agentText + "\`n\`n" + '$global:__agentSucceeded = $?')`,
    "$global:__agentSucceeded = $false",
    ". ([scriptblock]::Create('. $__agentCommand 2>&1 | Microsoft.PowerShell.Core\\Out-Default'))",
  ].join("\n");
}

/**
 * `-Command` collapses every failure to exit 1 (PowerShell issue #13501). Decide the exit code
 * ourselves, from the state right after the person's last statement (`$?`, kept by the line that
 * follows it). A native program's own non-zero code is kept; a failed cmdlet gives 1;
 * and a native program's stderr redirected inside the command (`2>&1`), which 5.1 and 7.0/7.1 turn
 * into `NativeCommandError` records that set `$?` to false, is not a failure when it exited 0.
 * Strict mode, if the command turned it on, is switched off first: reading an unset `$LASTEXITCODE`
 * (no native program ran) or a missing property would otherwise be an error of our own. The name is
 * module-qualified so a function or alias the command defined cannot stand in for it.
 */
export const POWERSHELL_EXIT_SUFFIX = [
  "$__agentSucceeded = $global:__agentSucceeded",
  "Microsoft.PowerShell.Core\\Set-StrictMode -Off",
  "$__agentNativeCode = $global:LASTEXITCODE",
  "if ($__agentSucceeded) { exit 0 }",
  "if ($__agentNativeCode -is [int] -and $__agentNativeCode -ne 0) { exit $__agentNativeCode }",
  "if ($Error.Count -gt 0 -and $Error[0].FullyQualifiedErrorId -like 'NativeCommandError*') { exit 0 }",
  "exit 1",
].join("\n");

/** The whole `-Command` text: prefix, the person's command as a script block, then the exit code. */
export function buildPowerShellScript(command: string): string {
  return [
    POWERSHELL_UTF8_PREFIX,
    POWERSHELL_STDERR_IN_ORDER,
    powerShellRunCommand(command),
    POWERSHELL_EXIT_SUFFIX,
  ].join("\n");
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

  get environmentNames(): readonly string[] {
    return environmentNamesOf(this.#environment);
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
