import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCommandEnvironment } from "../../src/adapters/command-environment.js";
import {
  resolveExecutable,
  resolveWindowsPowerShell,
} from "../../src/adapters/executable-resolution.js";
import {
  POWERSHELL_EXIT_SUFFIX,
  POWERSHELL_UTF8_PREFIX,
  PowerShellRunner,
  buildPowerShellArgs,
  buildPowerShellScript,
  powerShellDisplayName,
  powerShellEnvironment,
} from "../../src/adapters/powershell.js";

describe("PowerShell argv and script (pure; runs on every OS)", () => {
  it("passes the script as one -Command argument after the fixed flags", () => {
    expect(buildPowerShellArgs("Get-ChildItem")).toEqual([
      "-NoLogo",
      "-NoProfile",
      "-NonInteractive",
      "-OutputFormat",
      "Text",
      "-Command",
      buildPowerShellScript("Get-ChildItem"),
    ]);
  });

  it("never uses -EncodedCommand", () => {
    const args = buildPowerShellArgs("Write-Output 'x'").map((arg) => arg.toLowerCase());
    expect(args.some((arg) => arg.startsWith("-e") && arg !== "-command")).toBe(false);
  });

  it("sets UTF-8 output without a BOM before the command", () => {
    expect(POWERSHELL_UTF8_PREFIX).toBe(
      "[Console]::OutputEncoding = [System.Text.UTF8Encoding]::new($false); " +
        "$OutputEncoding = [Console]::OutputEncoding",
    );
  });

  it("puts the command on its own lines between prefix and exit-code suffix", () => {
    expect(buildPowerShellScript("git status # trailing comment")).toBe(
      [POWERSHELL_UTF8_PREFIX, "git status # trailing comment", POWERSHELL_EXIT_SUFFIX].join("\n"),
    );
  });

  it("ends with a suffix that keeps native exit codes and fails closed", () => {
    expect(POWERSHELL_EXIT_SUFFIX).toBe(
      [
        "$__agentSucceeded = $?",
        "$__agentNativeCode = $global:LASTEXITCODE",
        "if ($__agentSucceeded) { exit 0 }",
        "if ($__agentNativeCode -is [int] -and $__agentNativeCode -ne 0) { exit $__agentNativeCode }",
        "if ($Error.Count -gt 0 -and $Error[0].FullyQualifiedErrorId -like 'NativeCommandError*') { exit 0 }",
        "exit 1",
      ].join("\n"),
    );
  });

  it("adds Python's UTF-8 switches to the allowlisted environment", () => {
    expect(powerShellEnvironment({ PATH: "C:\\Windows" })).toEqual({
      PATH: "C:\\Windows",
      PYTHONUTF8: "1",
      PYTHONIOENCODING: "utf-8",
    });
  });

  it("names the two flavours as the person knows them", () => {
    expect(powerShellDisplayName("pwsh")).toBe("PowerShell 7");
    expect(powerShellDisplayName("windows-powershell")).toBe("Windows PowerShell");
  });
});

const lookup = { env: process.env, workspace: process.cwd(), platform: process.platform };
/** CI runs this file once per flavour: AGENT_TEST_POWERSHELL=pwsh or =powershell (5.1). */
const wanted = process.env.AGENT_TEST_POWERSHELL;
const pwsh =
  wanted === "powershell"
    ? undefined
    : resolveExecutable(process.platform === "win32" ? "pwsh.exe" : "pwsh", lookup);
const windowsPowerShell =
  process.platform === "win32" && wanted !== "pwsh"
    ? (resolveExecutable("powershell.exe", lookup) ?? resolveWindowsPowerShell(lookup))
    : undefined;
const realPowerShell = pwsh ?? windowsPowerShell;
const hasPowerShell = realPowerShell !== undefined;

describe("PowerShellRunner against a real PowerShell", () => {
  let workspace: string;
  let runner: PowerShellRunner;

  beforeAll(async () => {
    workspace = await mkdtemp(join(await realpath(tmpdir()), "powershell-"));
    if (realPowerShell === undefined) return;
    runner = new PowerShellRunner({
      executable: realPowerShell,
      flavor: pwsh === undefined ? "windows-powershell" : "pwsh",
      environment: buildCommandEnvironment(
        { ...process.env, OPENAI_API_KEY: "sk-must-not-leak" },
        { passEnv: [], platform: process.platform },
      ),
      platform: process.platform,
    });
  });

  afterAll(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  const limits = { timeoutMs: 60_000, maxOutputBytes: 50 * 1024 };

  it.skipIf(!hasPowerShell)(
    "prints UTF-8 中文 intact (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const result = await runner.run("Write-Output '中文'", workspace, limits);
      expect(result).toEqual({ exitCode: 0, output: "中文\n", truncated: false, timedOut: false });
    },
  );

  it.skipIf(!hasPowerShell)(
    "keeps a native program's exit code (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const native = process.platform === "win32" ? "cmd.exe /c exit 7" : "/bin/sh -c 'exit 7'";
      const result = await runner.run(native, workspace, limits);
      expect(result.exitCode).toBe(7);
    },
  );

  it.skipIf(!hasPowerShell)(
    "gives non-zero for a failing cmdlet (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const result = await runner.run("Get-Item ./does-not-exist", workspace, limits);
      expect(result.exitCode).toBe(1);
    },
  );

  it.skipIf(!hasPowerShell)(
    "treats stderr output with exit 0 as success (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const native =
        process.platform === "win32"
          ? 'cmd.exe /c "echo warn 1>&2 & exit 0"'
          : "/bin/sh -c 'echo warn >&2; exit 0'";
      const result = await runner.run(native, workspace, limits);
      expect(result.exitCode).toBe(0);
      expect(result.output).toContain("warn");
    },
  );

  it.skipIf(!hasPowerShell)(
    "does not show the API key to a command (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const result = await runner.run('Write-Output "[$env:OPENAI_API_KEY]"', workspace, limits);
      expect(result.output).toBe("[]\n");
    },
  );
});
