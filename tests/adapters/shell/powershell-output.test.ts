/**
 * Issue 25, the fast part: a few rows of the conformance table (the whole table, on the host and in
 * bubblewrap, is powershell-conformance.slow.test.ts), and what the wrapper must not change: line
 * numbers in error records, and a command ending in a comment or a line continuation.
 */
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POWERSHELL_MISSING, PWSH } from "../../support/host-executables.js";
import {
  conformanceRows,
  hostPlace,
  writeConformanceFixture,
  type Place,
} from "./powershell-conformance.js";

/**
 * A table after host output with the pipeline's output after it, a `Select-Object` table, and an
 * error after a table: each row starts pwsh twice (about a second of CPU each), so the fast gate
 * keeps three; the slow project runs the whole table, on the host and in bubblewrap.
 */
const REPRESENTATIVE_ROWS = [
  {
    command: "Write-Host 'to the host'; Get-Location; Write-Output 'to the pipeline'",
    exitCode: 0,
  },
  {
    command: "Get-Content package.json | ConvertFrom-Json | Select-Object name, version",
    exitCode: 0,
  },
  { command: "Get-Location; throw 'after the table'", exitCode: 1 },
];

describe.skipIf(PWSH === undefined)(
  PWSH === undefined
    ? `PowerShell prints what it printed (skipped: ${POWERSHELL_MISSING})`
    : "PowerShell prints what it printed, through the harness as alone",
  () => {
    let base: string;
    let workspace: string;
    let place: Place;

    beforeAll(async () => {
      base = await mkdtemp(join(await realpath(tmpdir()), "pwsh-output-"));
      workspace = join(base, "ws");
      await mkdir(workspace);
      await writeConformanceFixture(workspace);
      place = hostPlace(workspace);
    });

    afterAll(async () => {
      await rm(base, { recursive: true, force: true });
    });

    conformanceRows("host", () => place, REPRESENTATIVE_ROWS);

    it("numbers an error record's line within the command, not after the harness's prefix", async () => {
      expect(await place.harness("Write-Output one\n1 / 0")).toEqual({
        exitCode: 1,
        output: [
          "one",
          "[stderr] RuntimeException:",
          "[stderr] Line |",
          "[stderr]    2 |  1 / 0",
          "[stderr]      |  ~~~~~",
          "[stderr]      | Attempted to divide by zero.",
          "",
        ].join("\n"),
        truncated: false,
        timedOut: false,
      });
      // On line 1, pwsh shows no position at all.
      expect(await place.harness("1 / 0")).toMatchObject({
        exitCode: 1,
        output: "[stderr] RuntimeException: Attempted to divide by zero.\n",
      });
    });

    it("keeps the exit code when the command ends in a comment", async () => {
      expect(await place.harness("Get-Item ./missing # a comment")).toMatchObject({ exitCode: 1 });
    });

    it("says why incomplete input fails, where pwsh alone exits 1 without a word", async () => {
      expect(await place.harness("Write-Output a `")).toEqual({
        exitCode: 1,
        output: [
          "[stderr] ParserError: At line:1 char:18",
          "[stderr] + Write-Output a `",
          "[stderr] +                  ~",
          "[stderr] Incomplete string token.",
          "",
        ].join("\n"),
        truncated: false,
        timedOut: false,
      });
    });
  },
);
