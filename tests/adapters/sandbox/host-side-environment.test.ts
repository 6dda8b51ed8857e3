/**
 * What runs on the host before the sandbox (the shell that enters the command's cgroup, and bwrap
 * itself) gets none of the command's environment: a bash started with it would source `$BASH_ENV`
 * on the host, outside any sandbox, before every command. Inside, the command still gets its
 * environment (`--clearenv`, `--setenv`), without the shell startup variables.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CommandCgroup } from "../../../src/adapters/cgroup/command-cgroup.js";
import { BubblewrapRunner } from "../../../src/adapters/sandbox/bubblewrap.js";
import type { SandboxCgroups } from "../../../src/adapters/sandbox/cgroup-run.js";
import { buildCommandEnvironment } from "../../../src/adapters/shell/command-environment.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";

const BASH = hostExecutable("bash");
const PRLIMIT = hostExecutable("prlimit");
const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };

describe.skipIf(BWRAP === undefined || BASH === undefined || PRLIMIT === undefined)(
  "the sandbox's host side (needs Linux with bwrap, bash and prlimit)",
  () => {
    let base: string;
    let ws: string;
    let procs: string;
    let script: string;

    beforeEach(async () => {
      base = await mkdtemp(join(await realpath(tmpdir()), "host-side-env-"));
      ws = join(base, "ws");
      await mkdir(ws);
      // A stand-in cgroup: the entry shell writes its pid into this file as into a real one.
      await mkdir(join(base, "cgroup", "command"), { recursive: true });
      procs = join(base, "cgroup", "command", "cgroup.procs");
      await writeFile(procs, "");
      script = join(ws, "evil.sh");
    });
    afterEach(async () => {
      await rm(base, { recursive: true, force: true });
    });

    const cgroups: SandboxCgroups = {
      create: () => new CommandCgroup([{ directory: join(base, "cgroup", "command"), version: 2 }]),
    };

    function runner(environment: Readonly<Record<string, string>>): BubblewrapRunner {
      return new BubblewrapRunner({
        bwrapPath: BWRAP ?? "",
        shell: { executable: BASH ?? "", kind: "bash" },
        workspace: ws,
        home: homedir(),
        network: false,
        environment,
        limits: {
          prlimitPath: PRLIMIT ?? "",
          values: {
            memory: undefined,
            processes: undefined,
            "file-size": undefined,
            "cpu-time": undefined,
            "open-files": 1024,
          },
        },
        cgroups,
      });
    }

    it("the cgroup entry shell reads no $BASH_ENV, whatever environment the command has", async () => {
      // Outside the workspace: only a process on the host, not one in the sandbox, can create it.
      const marker = join(base, "host-marker");
      await writeFile(script, `touch '${marker}'\n`);
      const environment = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        BASH_ENV: script,
        "BASH_FUNC_echo%%": `() { touch '${marker}'; }`,
      };

      const result = await runner(environment).run("printf ran", ws, LIMITS);

      expect(existsSync(marker)).toBe(false);
      expect(result).toMatchObject({ exitCode: 0 });
      // The entry did run: it wrote its pid where the cgroup's procs file is.
      expect(Number(readFileSync(procs, "utf8").trim())).toBeGreaterThan(0);
    });

    it("the command inside reads no $BASH_ENV passed with --pass-env", async () => {
      // Inside the workspace: the sandbox's bash could create this one.
      const marker = join(ws, "sandbox-marker");
      await writeFile(script, `touch '${marker}'\n`);
      const environment = buildCommandEnvironment(
        { PATH: process.env.PATH ?? "/usr/bin:/bin", BASH_ENV: script },
        { passEnv: ["BASH_ENV"], platform: "linux" },
      );

      const result = await runner(environment).run("printf ran", ws, LIMITS);

      expect(result).toMatchObject({ exitCode: 0, output: "ran" });
      expect(existsSync(marker)).toBe(false);
    });
  },
);
