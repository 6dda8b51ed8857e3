import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShellExecution } from "../../../src/adapters/execution/shell-execution.js";
import {
  BWRAP,
  POWERSHELL_MISSING,
  POWERSHELL_TEST_ENV,
  PWSH,
} from "../../support/host-executables.js";
import type { CommandRunner } from "../../../src/core/ports/command-runner.js";

const SKIP = BWRAP === undefined || PWSH === undefined;
const SUITE = SKIP
  ? `PowerShell in bubblewrap (skipped: needs Linux with bwrap; ${POWERSHELL_MISSING})`
  : "PowerShell in real bubblewrap (--shell powershell --sandbox required)";
const LIMITS = { timeoutMs: 60_000, maxOutputBytes: 50 * 1024 };
const SECRET = "sk-test-never-inside";

describe.skipIf(SKIP)(SUITE, () => {
  let base: string;
  let ws: string;
  let runner: CommandRunner;
  const run = (command: string) => runner.run(command, ws, LIMITS);

  beforeAll(async () => {
    base = await mkdtemp(join(await realpath(tmpdir()), "bwrap-pwsh-"));
    ws = join(base, "ws");
    await mkdir(ws);
    // A `dotnet` in the workspace: the .NET tool's shim would start it; the harness never does.
    await writeFile(
      join(ws, "dotnet"),
      `#!/bin/sh\necho ran > '${join(ws, "planted-ran")}'\nexit 42\n`,
    );
    await chmod(join(ws, "dotnet"), 0o755);
    const execution = await createShellExecution({
      sandbox: "required",
      network: false,
      shell: "powershell",
      workspace: ws,
      env: { ...POWERSHELL_TEST_ENV, OPENAI_API_KEY: SECRET },
      platform: "linux",
      passEnv: [],
    });
    expect(execution.environment.status()).toMatchObject({ kind: "isolated" });
    runner = execution.runner;
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("runs PowerShell 7 with UTF-8 text and exit codes intact, never the planted dotnet", async () => {
    expect(runner.shellName).toBe("PowerShell 7");
    const command =
      "Write-Output '中文 😀'\n/bin/echo $PSVersionTable.PSEdition\n/bin/sh -c 'exit 7'";
    expect(await run(command)).toEqual({
      exitCode: 7,
      output: "中文 😀\nCore\n",
      truncated: false,
      timedOut: false,
    });
    expect(await run("exit 3")).toMatchObject({ exitCode: 3 });
    expect(existsSync(join(ws, "planted-ran"))).toBe(false);
  });

  it("writes in the workspace, not in the home directory or /etc, and never sees the key", async () => {
    const command = [
      "Set-Content -LiteralPath ./made-inside -Value yes",
      'Write-Output "[$env:OPENAI_API_KEY]"',
      "try { Set-Content -LiteralPath (Join-Path $HOME 'pwsh-escaped') -Value no -ErrorAction Stop } catch { Write-Output 'home read-only' }",
      "try { Set-Content -LiteralPath /etc/pwsh-escaped -Value no -ErrorAction Stop } catch { Write-Output 'etc read-only' }",
    ].join("\n");
    expect(await run(command)).toEqual({
      exitCode: 0,
      output: "[]\nhome read-only\netc read-only\n",
      truncated: false,
      timedOut: false,
    });
    expect(existsSync(join(ws, "made-inside"))).toBe(true);
    expect(existsSync(join(homedir(), "pwsh-escaped"))).toBe(false);
    expect(existsSync("/etc/pwsh-escaped")).toBe(false);
  });

  it("gives pwsh a private, writable cache on the sandbox's own /tmp", async () => {
    expect(
      await run(
        "Write-Output $env:XDG_CACHE_HOME $env:XDG_DATA_HOME $env:POWERSHELL_TELEMETRY_OPTOUT",
      ),
    ).toEqual({
      exitCode: 0,
      output: "/tmp/.cache\n/tmp/.local/share\n1\n",
      truncated: false,
      timedOut: false,
    });
  });
});
