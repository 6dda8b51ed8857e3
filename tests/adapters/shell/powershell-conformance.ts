/**
 * The PowerShell conformance table (issue 25): commands a person or a model types every day, each
 * with the exit code the harness must report. What a row must print is not written here: it is
 * whatever `pwsh -NoProfile -Command '<command>'` prints when run alone, in the same place, with
 * the same environment. The slow suite runs every row on the host and in bubblewrap; the fast
 * suite runs a few.
 */
import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runProcess } from "../../../src/adapters/process/index.js";
import { powerShellEnvironment } from "../../../src/adapters/shell/powershell.js";
import { createShellRunner, planPowerShell } from "../../../src/adapters/shell/shell-selection.js";
import type { CommandResult } from "../../../src/core/ports/command-runner.js";
import { POWERSHELL_TEST_ENV } from "../../support/host-executables.js";

export interface ConformanceRow {
  readonly command: string;
  /** By the harness's rules: native codes kept, a failing cmdlet 1, stderr with exit 0 is 0. */
  readonly exitCode: number;
}

/** Runs the native program `node` (on the trusted PATH on the host and in the sandbox). */
function node(script: string): string {
  return `node -e "${script}"`;
}

export const CONFORMANCE_ROWS: readonly ConformanceRow[] = [
  { command: "Get-Location", exitCode: 0 },
  { command: "Get-ChildItem", exitCode: 0 },
  { command: "Get-Item package.json", exitCode: 0 },
  { command: "Get-Content notes.txt", exitCode: 0 },
  {
    command: "Get-Content package.json | ConvertFrom-Json | Select-Object name, version",
    exitCode: 0,
  },
  {
    command: "Get-ChildItem -File | Where-Object Length -gt 20 | Select-Object Name, Length",
    exitCode: 0,
  },
  { command: "Get-ChildItem -File | Format-Table Name, Length", exitCode: 0 },
  { command: "Get-Item package.json | Format-List Name, Length", exitCode: 0 },
  { command: "Get-Content data.json | ConvertFrom-Json", exitCode: 0 },
  { command: "[ordered]@{ name = 'agent'; tags = @('a', 'b') } | ConvertTo-Json", exitCode: 0 },
  { command: "1..10 | Measure-Object -Sum -Average", exitCode: 0 },
  { command: "Get-Command Get-Location", exitCode: 0 },
  { command: "Test-Path package.json", exitCode: 0 },
  { command: "$PSVersionTable", exitCode: 0 },
  {
    command:
      "Get-Process -Id $PID | Select-Object -First 1 -Property ProcessName, @{ Name = 'Self'; Expression = { $_.Id -eq $PID } }",
    exitCode: 0,
  },
  // One key: a hashtable's order follows .NET's per-process string hashes.
  { command: "@{ tool = 'agent' }", exitCode: 0 },
  {
    command:
      "[pscustomobject]@{ name = 'a'; size = 1 }, [pscustomobject]@{ name = 'b'; size = 22 }",
    exitCode: 0,
  },
  {
    command: "Write-Host 'to the host'; Get-Location; Write-Output 'to the pipeline'",
    exitCode: 0,
  },
  { command: "Write-Warning 'careful'; Get-Location", exitCode: 0 },
  {
    command:
      "Write-Verbose 'details' -Verbose; Write-Information 'info' -InformationAction Continue",
    exitCode: 0,
  },
  { command: "Write-Error 'boom'", exitCode: 1 },
  { command: "throw 'boom'", exitCode: 1 },
  { command: "Get-Location; throw 'after the table'", exitCode: 1 },
  { command: "Get-Item ./missing", exitCode: 1 },
  { command: "Write-Output one\nGet-Item ./missing", exitCode: 1 },
  // Today's rule: `$?` after a function is true even when it wrote an error (as in pwsh itself).
  { command: "function Test-It { Write-Error 'inside' }\nTest-It", exitCode: 0 },
  {
    command:
      "$ErrorActionPreference = 'Stop'\nGet-Location\nGet-Item ./missing\nWrite-Output never",
    exitCode: 1,
  },
  { command: "Write-Output a; Get-Item )", exitCode: 1 },
  { command: "Set-StrictMode -Version Latest\nGet-Location\n$undefined", exitCode: 1 },
  { command: node("console.log('out'); console.error('err'); process.exit(3)"), exitCode: 3 },
  { command: node("console.error('warn'); process.exit(0)"), exitCode: 0 },
  { command: "npm --version", exitCode: 0 },
  {
    command:
      "$items = 1..3 | ForEach-Object {\n  [pscustomobject]@{ n = $_; square = $_ * $_ }\n}\n$items",
    exitCode: 0,
  },
  { command: "Get-Content notes.txt | Select-String beta", exitCode: 0 },
  { command: "'b', 'a', 'c' | Sort-Object | ForEach-Object { $_.ToUpper() }", exitCode: 0 },
  { command: "[pscustomobject]@{ 名前 = '中文'; emoji = '😀' }", exitCode: 0 },
];

/** The same files for every run, with fixed times, so listings are alike run after run. */
export async function writeConformanceFixture(workspace: string): Promise<void> {
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify({ name: "conformance-project", version: "1.2.3" }, null, 2)}\n`,
    "notes.txt": "alpha\nbeta 中文\ngamma\n",
    "data.json": `${JSON.stringify([
      { id: 1, label: "one" },
      { id: 2, label: "two" },
    ])}\n`,
  };
  const fixed = new Date("2026-01-02T03:04:05Z");
  await mkdir(join(workspace, "src"), { recursive: true });
  await utimes(join(workspace, "src"), fixed, fixed);
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(workspace, name), text);
    await utimes(join(workspace, name), fixed, fixed);
  }
}

/** The reference: the command alone, as a person would type it. */
export function referenceArgs(entryPoint: string | undefined, command: string): string[] {
  return [...(entryPoint === undefined ? [] : [entryPoint]), "-NoProfile", "-Command", command];
}

/** An SGR escape (ESC [ … m), built from a string because lint forbids control characters in regex literals. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/**
 * Line endings, blanks at a line's end and trailing blank lines do not count (the harness drops
 * them; the reference's are only dropped before its colour codes are). pwsh alone colours tables and errors when
 * its output is redirected (PowerShell issue #20170); the harness asks for plain text, so the
 * reference's colour codes are dropped (the harness's own output is compared as it is).
 */
export function normalised(output: string, { dropColours = false } = {}): string {
  const text = dropColours ? output.replaceAll(COLOUR, "") : output;
  return text
    .replaceAll("\r\n", "\n")
    .replaceAll(/[ \t]+$/gm, "")
    .replace(/\s*$/, "");
}

/**
 * The output as its two streams, each in the order it was written, trailing blank lines dropped.
 * stdout and stderr reach the harness (and a reference capture of pwsh alone) through two pipes,
 * so how their lines interleave depends on scheduling, in both: a table's closing blank line may
 * land before or after the error that followed it. Every line, and each stream's order, still
 * has to match.
 */
export function byStream(output: string): { stdout: string[]; stderr: string[] } {
  const lines = output.split("\n");
  const trimmed = (kept: string[]): string[] => {
    while (kept.length > 0 && kept[kept.length - 1]?.trim() === "") kept.pop();
    return kept;
  };
  return {
    stdout: trimmed(lines.filter((line) => !line.startsWith(STDERR_PREFIX))),
    stderr: trimmed(lines.filter((line) => line.startsWith(STDERR_PREFIX))),
  };
}

const STDERR_PREFIX = "[stderr] ";

export const LIMITS = { timeoutMs: 60_000, maxOutputBytes: 50 * 1024 };
const ROW_TIMEOUT_MS = 120_000;

/** A place to run commands: through the harness, and the same command alone beside it. */
export interface Place {
  readonly harness: (command: string) => Promise<CommandResult>;
  readonly alone: (command: string) => Promise<CommandResult>;
}

/** The host: the runner shell selection builds, and the same pwsh started with only `-Command`. */
export function hostPlace(workspace: string): Place {
  const plan = planPowerShell({
    env: POWERSHELL_TEST_ENV,
    workspace,
    platform: process.platform,
    passEnv: [],
  });
  const runner = createShellRunner(plan);
  return {
    harness: (command) => runner.run(command, workspace, LIMITS),
    alone: (command) =>
      runProcess({
        executable: plan.executable,
        args: referenceArgs(plan.entryPoint, command),
        cwd: workspace,
        env: powerShellEnvironment(plan.environment),
        killTree: plan.killTree,
        ...LIMITS,
      }),
  };
}

/** One test per row: the harness prints what pwsh alone prints, with the harness's exit code. */
export function conformanceRows(
  label: string,
  place: () => Place,
  rows: readonly ConformanceRow[] = CONFORMANCE_ROWS,
): void {
  it.each(rows)(
    `${label}: $command`,
    async ({ command, exitCode }) => {
      const { harness, alone } = place();
      // One after the other: pwsh alone sizes an implicit table's columns from the rows that come
      // within ~300 ms, and two pwsh started at once on a loaded 2-core host once cut the
      // reference's `package.json` to `package.…` (a row of the harness's stayed whole).
      const ours = await harness(command);
      const reference = await alone(command);
      expect(reference.timedOut).toBe(false);
      expect({ exitCode: ours.exitCode, output: byStream(normalised(ours.output)) }).toEqual({
        exitCode,
        output: byStream(normalised(reference.output, { dropColours: true })),
      });
      expect(ours.truncated).toBe(false);
    },
    ROW_TIMEOUT_MS,
  );
}
