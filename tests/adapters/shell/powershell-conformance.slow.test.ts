/**
 * Issue 25: every row of the conformance table prints through the harness exactly what pwsh prints
 * for the command alone, with the harness's exit code, on the host and in bubblewrap. Slow: two
 * pwsh start-ups (about a second each) per row and place.
 */
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { createShellExecution } from "../../../src/adapters/execution/shell-execution.js";
import { planPowerShell } from "../../../src/adapters/shell/shell-selection.js";
import {
  BWRAP,
  POWERSHELL_MISSING,
  POWERSHELL_TEST_ENV,
  PWSH,
} from "../../support/host-executables.js";
import {
  conformanceRows,
  hostPlace,
  LIMITS,
  referenceArgs,
  writeConformanceFixture,
  type Place,
} from "./powershell-conformance.js";

let base: string;
let workspace: string;

beforeAll(async () => {
  base = await mkdtemp(join(await realpath(tmpdir()), "pwsh-conformance-"));
  workspace = join(base, "ws");
  await mkdir(workspace);
  await writeConformanceFixture(workspace);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe.skipIf(PWSH === undefined)(
  PWSH === undefined
    ? `PowerShell conformance on the host (skipped: ${POWERSHELL_MISSING})`
    : "PowerShell conformance on the host: the harness prints what pwsh alone prints",
  () => {
    let place: Place;
    beforeAll(() => {
      place = hostPlace(workspace);
    });
    conformanceRows("host", () => place);
  },
);

const NO_SANDBOX = BWRAP === undefined || PWSH === undefined;

describe.skipIf(NO_SANDBOX)(
  NO_SANDBOX
    ? `PowerShell conformance in bubblewrap (skipped: needs Linux with bwrap; ${POWERSHELL_MISSING})`
    : "PowerShell conformance in bubblewrap: the harness prints what pwsh alone prints there",
  () => {
    let place: Place;
    beforeAll(async () => {
      const execution = await createShellExecution({
        sandbox: "required",
        network: false,
        shell: "powershell",
        workspace,
        env: POWERSHELL_TEST_ENV,
        platform: "linux",
        passEnv: [],
      });
      expect(execution.environment.status()).toMatchObject({ kind: "isolated" });
      // The same pwsh, started the same way, in the same sandbox: only the wrapper is missing.
      const plan = planPowerShell({
        env: POWERSHELL_TEST_ENV,
        workspace,
        platform: "linux",
        passEnv: [],
      });
      const program = basename(plan.executable);
      place = {
        harness: (command) => execution.runner.run(command, workspace, LIMITS),
        alone: (command) =>
          execution.argvRunner.run(
            [program, ...referenceArgs(plan.entryPoint, command)],
            workspace,
            LIMITS,
          ),
      };
    });
    conformanceRows("sandbox", () => place);
  },
);
