import { describe, expect, it } from "vitest";
import {
  POWERSHELL_EXIT_SUFFIX,
  POWERSHELL_STDERR_IN_ORDER,
  POWERSHELL_UTF8_PREFIX,
  buildPowerShellArgs,
  buildPowerShellScript,
  powerShellDisplayName,
  powerShellEnvironment,
  powerShellRunCommand,
} from "../../../src/adapters/shell/powershell.js";

const PREFIX_LINES = [
  "try { [Console]::OutputEncoding = [System.Text.UTF8Encoding]::new($false) } catch { }",
  "$OutputEncoding = [System.Text.UTF8Encoding]::new($false)",
  "if ($PSStyle) { $PSStyle.OutputRendering = 'PlainText' }",
];

const SUFFIX_LINES = [
  "$__agentSucceeded = $global:__agentSucceeded",
  "Microsoft.PowerShell.Core\\Set-StrictMode -Off",
  "$__agentNativeCode = $global:LASTEXITCODE",
  "if ($__agentSucceeded) { exit 0 }",
  "if ($__agentNativeCode -is [int] -and $__agentNativeCode -ne 0) { exit $__agentNativeCode }",
  "if ($Error.Count -gt 0 -and $Error[0].FullyQualifiedErrorId -like 'NativeCommandError*') { exit 0 }",
  "exit 1",
];

describe("PowerShell argv and script (pure; runs on every OS)", () => {
  it("sets UTF-8 without a BOM, tolerating a missing console, and plain-text rendering", () => {
    expect(POWERSHELL_UTF8_PREFIX).toBe(PREFIX_LINES.join("\n"));
  });

  it("reads the kept $? first, then leaves strict mode, and keeps native exit codes", () => {
    expect(POWERSHELL_EXIT_SUFFIX).toBe(SUFFIX_LINES.join("\n"));
  });

  it("hands the command over as base64 UTF-8, never as quoted text", () => {
    const command = "Write-Output ‘中文’ # it's";
    const encoded = Buffer.from(command, "utf8").toString("base64");
    expect(powerShellRunCommand(command)).toBe(
      [
        `$__agentText = [System.Text.Encoding]::UTF8.GetString([System.Convert]::FromBase64String('${encoded}'))`,
        "try { $null = [scriptblock]::Create($__agentText) } catch { $__agentParse = $_.Exception.InnerException; if ($__agentParse.Errors[0].IncompleteInput) { Write-Error -Message $__agentParse.Message -CategoryActivity ParserError }; throw $__agentParse }",
        `$__agentCommand = [scriptblock]::Create($__agentText + "\`n\`n" + '$global:__agentSucceeded = $?')`,
        "$global:__agentSucceeded = $false",
        ". ([scriptblock]::Create('. $__agentCommand 2>&1 | Microsoft.PowerShell.Core\\Out-Default'))",
      ].join("\n"),
    );
    expect(powerShellRunCommand(command)).not.toContain("中文");
  });

  it("puts the prefix, the stderr writer, the command's script block, then the suffix", () => {
    expect(buildPowerShellScript("git status # trailing comment")).toBe(
      [
        POWERSHELL_UTF8_PREFIX,
        POWERSHELL_STDERR_IN_ORDER,
        powerShellRunCommand("git status # trailing comment"),
        ...SUFFIX_LINES,
      ].join("\n"),
    );
  });

  it("passes the whole script, quotes and dollars untouched, as the one argument after -Command", () => {
    const command = "Write-Output 'a\"b $c'";
    expect(buildPowerShellArgs(command)).toEqual([
      "-NoLogo",
      "-NoProfile",
      "-NonInteractive",
      "-OutputFormat",
      "Text",
      "-Command",
      buildPowerShellScript(command),
    ]);
  });

  it("adds Python's UTF-8 switches, the telemetry opt-out and no .NET diagnostics", () => {
    expect(powerShellEnvironment({ PATH: "C:\\Windows" })).toEqual({
      PATH: "C:\\Windows",
      PYTHONUTF8: "1",
      PYTHONIOENCODING: "utf-8",
      POWERSHELL_TELEMETRY_OPTOUT: "1",
      DOTNET_EnableDiagnostics: "0",
    });
  });

  it("names the two flavours as the person knows them", () => {
    expect(powerShellDisplayName("pwsh")).toBe("PowerShell 7");
    expect(powerShellDisplayName("windows-powershell")).toBe("Windows PowerShell");
  });
});
