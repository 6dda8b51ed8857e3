/**
 * A variable that configures the shell itself (`BASH_ENV`, `ENV`, `BASH_FUNC_*%%`, `SHELLOPTS`…)
 * never reaches a command, not even with `--pass-env`: pointing into the workspace, it would run
 * a file the model wrote before every command the person approved, on the host.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  buildCommandEnvironment,
  createShellRunner,
  passEnvNotices,
  planShell,
} from "../../../src/adapters/shell/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

const STARTUP_NAMES = [
  "BASH_ENV",
  "ENV",
  "BASH_FUNC_true%%",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
  "PROMPT_COMMAND",
  "IFS",
  "CDPATH",
  "GLOBIGNORE",
  "POSIXLY_CORRECT",
  "LD_PRELOAD",
  "DOTNET_STARTUP_HOOKS",
];

describe("shell startup variables", () => {
  it("are dropped from the command environment even when passed with --pass-env", () => {
    const host: Record<string, string> = {
      PATH: "/usr/bin:/bin",
      MY_SETTING: "on",
      ...Object.fromEntries(STARTUP_NAMES.map((name) => [name, "/ws/evil.sh"])),
    };
    expect(
      buildCommandEnvironment(host, {
        passEnv: [...STARTUP_NAMES, "MY_SETTING"],
        platform: "linux",
      }),
    ).toEqual({ PATH: "/usr/bin:/bin", MY_SETTING: "on" });
    expect(
      buildCommandEnvironment(
        { Path: "C:\\Windows", bash_env: "C:\\ws\\evil.sh", Env: "x" },
        { passEnv: ["BASH_ENV", "ENV"], platform: "win32" },
      ),
    ).toEqual({ Path: "C:\\Windows" });
  });

  it("are named once on stderr with why, when asked for", () => {
    const why =
      "configures the shell itself (a startup file, functions or options), which could run a file from the workspace before every command, and those never reach commands";
    expect(
      passEnvNotices(["BASH_ENV", "BASH_FUNC_ls%%", "ENV", "BASH_ENV"], { BASH_ENV: "x" }, "linux"),
    ).toEqual([
      `--pass-env BASH_ENV is not passed: it ${why}`,
      `--pass-env BASH_FUNC_ls%% is not passed: it ${why}`,
      `--pass-env ENV is not passed: it ${why}`,
    ]);
  });
});

describe.skipIf(process.platform === "win32")(
  "a command run on the host (POSIX only: runs bash and sh)",
  () => {
    let temp: TempWorkspace;
    let marker: string;
    let hostEnv: Record<string, string>;

    beforeEach(async () => {
      temp = await makeTempWorkspace();
      marker = join(temp.root, "marker");
      // What the model could write inside the workspace, and a person's pass-env pointing at it.
      const script = join(temp.workspace, "evil.sh");
      await writeFile(script, `touch '${marker}'\n`);
      hostEnv = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        BASH_ENV: script,
        ENV: script,
        "BASH_FUNC_true%%": `() { touch '${marker}'; }`,
        SHELLOPTS: "xtrace",
        PS4: `$(touch '${marker}')`,
      };
    });
    afterEach(() => temp.cleanup());

    it.each(["posix", "auto"] as const)(
      "with --shell %s reads no startup file and imports no function",
      async (choice) => {
        const plan = planShell({
          choice,
          env: hostEnv,
          workspace: temp.workspace,
          platform: process.platform,
          passEnv: Object.keys(hostEnv),
        });
        const result = await createShellRunner(plan).run("true; echo ran", temp.workspace, {
          timeoutMs: 20_000,
          maxOutputBytes: 4096,
        });

        expect(result).toMatchObject({ exitCode: 0, output: "ran\n" });
        expect(existsSync(marker)).toBe(false);
      },
    );
  },
);
