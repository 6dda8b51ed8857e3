/**
 * The PowerShell runner against a real PowerShell: one start-up per test (a few seconds each), so
 * this file is in the slow project. What the runner builds (argv, script, environment) is checked
 * without a PowerShell in powershell-script.test.ts, in the fast gate.
 */
import { chmod, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killTreeStrategyFor } from "../../../src/adapters/process/kill-tree.js";
import type { CommandRunner } from "../../../src/core/ports/command-runner.js";
import { buildCommandEnvironment } from "../../../src/adapters/shell/command-environment.js";
import {
  resolveExecutable,
  resolveWindowsPowerShell,
} from "../../../src/adapters/shell/executable-resolution.js";
import { PowerShellRunner } from "../../../src/adapters/shell/powershell.js";
import { createShellRunner, planShell } from "../../../src/adapters/shell/shell-selection.js";
import { POWERSHELL_TEST_ENV } from "../../support/host-executables.js";

const windows = process.platform === "win32";
const lookup = { env: POWERSHELL_TEST_ENV, workspace: process.cwd(), platform: process.platform };
/** CI runs this file once per flavour: AGENT_TEST_POWERSHELL=pwsh or =powershell (5.1). */
const wanted = process.env.AGENT_TEST_POWERSHELL;
const pwsh =
  wanted === "powershell" ? undefined : resolveExecutable(windows ? "pwsh.exe" : "pwsh", lookup);
const windowsPowerShell =
  windows && wanted !== "pwsh"
    ? (resolveExecutable("powershell.exe", lookup) ?? resolveWindowsPowerShell(lookup))
    : undefined;
const realPowerShell = pwsh ?? windowsPowerShell;
const noPowerShell = realPowerShell === undefined;
const notWindowsPowerShell = noPowerShell || !windows;
const python = resolveExecutable(windows ? "python.exe" : "python3", lookup);
/** PowerShell writes lines with the platform's newline, and so do cmd and Python on Windows. */
const eol = windows ? "\r\n" : "\n";
const nodePath = process.execPath;

/** A PowerShell single-quoted literal: nothing inside is expanded; `'` is doubled. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** taskkill and SIGKILL finish asynchronously: give the kernel a moment to reap the process. */
async function exitedWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

async function readPid(file: string): Promise<number> {
  const pid = Number.parseInt((await readFile(file, "utf8")).trim(), 10);
  expect(Number.isSafeInteger(pid)).toBe(true);
  return pid;
}

describe("PowerShellRunner against a real PowerShell", () => {
  let workspace: string;
  let runner: CommandRunner;
  const leftovers: number[] = [];

  beforeAll(async () => {
    workspace = await mkdtemp(join(await realpath(tmpdir()), "powershell-"));
    if (realPowerShell === undefined) return;
    const hostEnv = { ...POWERSHELL_TEST_ENV, OPENAI_API_KEY: "sk-must-not-leak" };
    if (pwsh !== undefined) {
      // The way the harness starts it: shell selection decides (a .NET tool's pwsh.dll, or pwsh).
      const choice = { choice: "powershell", passEnv: [] } as const;
      const options = { ...choice, env: hostEnv, workspace, platform: process.platform };
      runner = createShellRunner(planShell(options));
      return;
    }
    const environment = buildCommandEnvironment(hostEnv, {
      passEnv: [],
      platform: process.platform,
    });
    runner = new PowerShellRunner({
      executable: realPowerShell,
      flavor: "windows-powershell",
      environment,
      killTree: killTreeStrategyFor(process.platform, environment),
    });
  });

  afterAll(async () => {
    for (const pid of leftovers) {
      if (isAlive(pid)) process.kill(pid);
    }
    await rm(workspace, { recursive: true, force: true });
  });

  const limits = { timeoutMs: 60_000, maxOutputBytes: 50 * 1024 };
  const run = (command: string, timeoutMs = limits.timeoutMs) =>
    runner.run(command, workspace, { ...limits, timeoutMs });

  it.runIf(wanted !== undefined)(
    "finds the PowerShell that AGENT_TEST_POWERSHELL names (only when CI sets it)",
    async () => {
      expect(realPowerShell).toBeDefined();
      const edition = wanted === "powershell" ? "Desktop" : "Core";
      expect(await run("$PSVersionTable.PSEdition")).toEqual({
        exitCode: 0,
        output: `${edition}${eol}`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell)(
    "prints 中文 from Write-Output as UTF-8 (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      expect(await run("Write-Output '中文'")).toEqual({
        exitCode: 0,
        output: `中文${eol}`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell || python === undefined)(
    "prints 中文 from Python as UTF-8 (needs PowerShell and python on PATH; skipped where absent)",
    async () => {
      const command = `& ${quoted(python ?? "")} -c "print('中文')"`;
      expect(await run(command)).toEqual({
        exitCode: 0,
        output: `中文${eol}`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(notWindowsPowerShell)(
    "prints 中文 from cmd /c echo as UTF-8 (needs Windows and PowerShell; skipped elsewhere)",
    async () => {
      expect(await run("cmd /c echo 中文")).toEqual({
        exitCode: 0,
        output: `中文\r\n`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell)(
    "keeps an embedded double quote and a $ intact (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      expect(await run("Write-Output 'a\"b $c'")).toEqual({
        exitCode: 0,
        output: `a"b $c${eol}`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell)(
    "keeps a native program's own exit code (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const native = windows ? "cmd /c exit 7" : "/bin/sh -c 'exit 7'";
      expect(await run(native)).toEqual({
        exitCode: 7,
        output: "",
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell)(
    "keeps the code of the command's own exit (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      expect(await run("Write-Output before\nexit 3\nWrite-Output after")).toEqual({
        exitCode: 3,
        output: `before${eol}`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell)(
    "gives 1 for a failing cmdlet, as plain text (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const result = await run("Get-Item ./does-not-exist");
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain("does-not-exist");
      expect(result.output).not.toContain("\u001b[");
    },
  );

  it.skipIf(noPowerShell)(
    "gives 1 for a failing cmdlet under strict mode, with no error of its own (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const result = await run("Set-StrictMode -Version Latest\nGet-Item ./does-not-exist");
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain("does-not-exist");
      expect(result.output).not.toContain("LASTEXITCODE");
    },
  );

  it.skipIf(noPowerShell)(
    "treats stderr output with exit 0 as success (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const native = windows
        ? 'cmd /c "(echo warn)1>&2 & exit 0"'
        : "/bin/sh -c 'echo warn >&2; exit 0'";
      expect(await run(native)).toEqual({
        exitCode: 0,
        output: `[stderr] warn${eol}`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell)(
    "treats stderr redirected with 2>&1 and exit 0 as success (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const native = windows
        ? 'cmd /c "(echo warn)1>&2 & exit 0" 2>&1'
        : "/bin/sh -c 'echo warn >&2; exit 0' 2>&1";
      const result = await run(native);
      expect(result.exitCode).toBe(0);
      expect(result.output).toContain("warn");
    },
  );

  it.skipIf(noPowerShell)(
    "does not show the API key to a command (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      expect(await run('Write-Output "[$env:OPENAI_API_KEY]"')).toEqual({
        exitCode: 0,
        output: `[]${eol}`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell)(
    "returns when the shell exits although a Start-Process -NoNewWindow daemon holds its pipes (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const pidFile = join(workspace, "daemon.pid");
      const command = [
        `$p = Start-Process -NoNewWindow -PassThru -FilePath ${quoted(nodePath)} -ArgumentList '-e','setTimeout(()=>{},120000)'`,
        `Set-Content -LiteralPath ${quoted(pidFile)} -Value $p.Id`,
        "Write-Output started",
      ].join("\n");
      const result = await run(command);
      const daemon = await readPid(pidFile);
      leftovers.push(daemon);
      // The daemon outlives the run: only the drain cap, not its 120 s, stood between us and it.
      expect(isAlive(daemon)).toBe(true);
      expect(result).toEqual({
        exitCode: 0,
        output: `started${eol}`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell)(
    "kills a grandchild when the command times out (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const pidFile = join(workspace, "grandchild.pid");
      const command = [
        `$p = Start-Process -NoNewWindow -PassThru -FilePath ${quoted(nodePath)} -ArgumentList '-e','setTimeout(()=>{},120000)'`,
        `Set-Content -LiteralPath ${quoted(pidFile)} -Value $p.Id`,
        "Start-Sleep -Seconds 120",
      ].join("\n");
      // Long enough for a cold Windows PowerShell to start and write the pid file first.
      const result = await run(command, 15_000);
      const grandchild = await readPid(pidFile);
      leftovers.push(grandchild);
      expect(result).toEqual({ exitCode: null, output: "", truncated: false, timedOut: true });
      expect(await exitedWithin(grandchild, 10_000)).toBe(true);
    },
    60_000,
  );

  it.skipIf(noPowerShell)(
    "prints 中文 and emoji from Write-Output and [Console]::Out.Write, never CLIXML (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const command = "Write-Output '中文 😀'\n[Console]::Out.Write('漢字🎉')";
      expect(await run(command)).toEqual({
        exitCode: 0,
        output: `中文 😀${eol}漢字🎉`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell || windows)(
    "prints 中文 and emoji from /bin/echo as UTF-8 (needs pwsh; POSIX only)",
    async () => {
      expect(await run("/bin/echo '中文 😀'")).toEqual({
        exitCode: 0,
        output: "中文 😀\n",
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(noPowerShell)(
    "gives 1 for Write-Error, as plain text with no CLIXML and no colours (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const result = await run("Write-Warning 'careful'\nWrite-Error 'boom 中文'");
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain("careful");
      expect(result.output).toContain("boom 中文");
      expect(result.output).not.toContain("CLIXML");
      expect(result.output).not.toContain("\u001b[");
    },
  );

  it.skipIf(noPowerShell)(
    "does not wait for a background job (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const started = Date.now();
      const command = "$null = Start-Job { Start-Sleep -Seconds 60 }\nWrite-Output queued";
      expect(await run(command, 30_000)).toEqual({
        exitCode: 0,
        output: `queued${eol}`,
        truncated: false,
        timedOut: false,
      });
      expect(Date.now() - started).toBeLessThan(25_000);
    },
    60_000,
  );

  it.skipIf(noPowerShell)(
    "cuts the output at the 50 KB cap (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      const result = await run("[Console]::Out.Write('x' * 200000)");
      expect(result.truncated).toBe(true);
      expect(result.exitCode).toBe(0);
      expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(limits.maxOutputBytes);
      // The head is kept here and the tail beside it, with a count of what was left out between.
      expect(result.output).toMatch(/^x{20000,}$/);
      expect(result.omitted?.tail).toMatch(/^x{20000,}$/);
      expect(result.omitted?.totalBytes).toBe(200000);
    },
  );

  it.skipIf(noPowerShell)(
    "closes stdin: a command that reads it gets end of input at once (needs pwsh or powershell.exe; skipped where absent)",
    async () => {
      expect(await run("[Console]::In.ReadToEnd().Length", 30_000)).toEqual({
        exitCode: 0,
        output: `0${eol}`,
        truncated: false,
        timedOut: false,
      });
    },
  );

  it.skipIf(pwsh === undefined || windows)(
    "never runs a dotnet planted in the workspace, which the .NET tool's shim would start (needs pwsh; POSIX only)",
    async () => {
      const marker = join(workspace, "planted-dotnet-ran");
      const planted = join(workspace, "dotnet");
      await writeFile(planted, `#!/bin/sh\necho ran > '${marker}'\necho PLANTED\nexit 42\n`);
      await chmod(planted, 0o755);
      try {
        expect(await run("Write-Output ok")).toEqual({
          exitCode: 0,
          output: "ok\n",
          truncated: false,
          timedOut: false,
        });
        await expect(stat(marker)).rejects.toThrow(/ENOENT/);
      } finally {
        await rm(planted, { force: true });
      }
    },
  );
});
