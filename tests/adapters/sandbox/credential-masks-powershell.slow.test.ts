/**
 * pwsh in real bubblewrap with the person's PowerShell profile, its history and a `.bashrc`
 * masked: it still starts (it runs with -NoProfile, and keeps its own folders on the sandbox's
 * /tmp), and none of them can be read.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShellExecution } from "../../../src/adapters/execution/shell-execution.js";
import type { CommandRunner } from "../../../src/core/ports/command-runner.js";
import {
  BWRAP,
  POWERSHELL_MISSING,
  POWERSHELL_TEST_ENV,
  PWSH,
} from "../../support/host-executables.js";

const SKIP = BWRAP === undefined || PWSH === undefined;
const SUITE = SKIP
  ? `PowerShell with masked credentials (skipped: needs Linux with bwrap; ${POWERSHELL_MISSING})`
  : "PowerShell with masked credentials in real bubblewrap";
const LIMITS = { timeoutMs: 60_000, maxOutputBytes: 50 * 1024 };
const KEY = "sk-proj-test-0123456789abcdef";

describe.skipIf(SKIP)(SUITE, () => {
  let base: string;
  let ws: string;
  let home: string;
  let runner: CommandRunner;

  beforeAll(async () => {
    // Not under /tmp: the sandbox's /tmp is its own, so a home there would not be seen at all.
    base = await mkdtemp(
      join(await realpath(existsSync("/var/tmp") ? "/var/tmp" : tmpdir()), "masks-pwsh-"),
    );
    ws = join(base, "ws");
    home = join(base, "home");
    const profile = join(home, ".config", "powershell");
    const history = join(home, ".local", "share", "powershell", "PSReadLine");
    await Promise.all([mkdir(ws), mkdir(profile, { recursive: true })]);
    await mkdir(history, { recursive: true });
    await writeFile(
      join(profile, "Microsoft.PowerShell_profile.ps1"),
      `$env:OPENAI_API_KEY = '${KEY}'\n`,
    );
    await writeFile(join(history, "ConsoleHost_history.txt"), `$env:OPENAI_API_KEY = '${KEY}'\n`);
    await writeFile(join(home, ".bashrc"), `export OPENAI_API_KEY=${KEY}\n`);
    const execution = await createShellExecution({
      sandbox: "required",
      network: false,
      shell: "powershell",
      workspace: ws,
      env: { ...POWERSHELL_TEST_ENV, HOME: home },
      platform: "linux",
      passEnv: [],
    });
    expect(execution.environment.status()).toMatchObject({ kind: "isolated" });
    runner = execution.runner;
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("starts, and reads nothing of the profile, the history or ~/.bashrc", async () => {
    const command = [
      "Write-Output ran",
      "Get-ChildItem -Force -Name (Join-Path $HOME '.config/powershell')",
      "Get-ChildItem -Force -Name (Join-Path $HOME '.local/share/powershell/PSReadLine')",
      "Write-Output ('[' + (Get-Content -Raw (Join-Path $HOME '.bashrc')) + ']')",
    ].join("\n");
    expect(await runner.run(command, ws, LIMITS)).toEqual({
      exitCode: 0,
      output: "ran\n[]\n",
      truncated: false,
      timedOut: false,
    });
  });
});
