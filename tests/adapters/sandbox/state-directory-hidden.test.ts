/**
 * Issue 16: the harness's state directory (run journals: whole conversations) is out of reach of
 * sandboxed commands. `/` is bound read-only, so they cannot write it; hidden by an empty
 * read-only tmpfs, they cannot read it either.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BubblewrapRunner } from "../../../src/adapters/sandbox/bubblewrap.js";
import { buildCommandEnvironment } from "../../../src/adapters/shell/command-environment.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";
import { withEnglishMessages } from "../../support/english-messages.js";

const BASH = hostExecutable("bash");
const JOURNAL = '{"type":"run_started","prompt":"secret task"}\n';
const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };

describe.skipIf(BWRAP === undefined || BASH === undefined)(
  "the state directory in the sandbox (real bubblewrap)",
  () => {
    let base: string;
    let ws: string;
    let state: string;

    beforeEach(async () => {
      base = await mkdtemp(join(await realpath(tmpdir()), "bwrap-state-"));
      ws = join(base, "ws");
      await mkdir(ws);
      // Not under /tmp, which the sandbox replaces anyway: a host path only `/`'s bind covers.
      state = await mkdtemp(join(await realpath("/var/tmp"), "agent-state-"));
      await writeFile(join(state, "run.jsonl"), JOURNAL);
    });

    afterEach(async () => {
      await rm(base, { recursive: true, force: true });
      await rm(state, { recursive: true, force: true });
    });

    function run(command: string, hiddenPaths: readonly string[]) {
      return new BubblewrapRunner({
        bwrapPath: BWRAP ?? "",
        shell: { executable: BASH ?? "", kind: "bash" },
        workspace: ws,
        home: homedir(),
        network: false,
        environment: buildCommandEnvironment(withEnglishMessages(process.env), {
          passEnv: [],
          platform: "linux",
        }),
        hiddenPaths,
      }).run(command, ws, LIMITS);
    }

    it("cannot write it even when it is not hidden: / is read-only", async () => {
      const result = await run(`touch ${state}/planted; echo x >> ${state}/run.jsonl`, []);
      expect(result.output).toBe(
        `[stderr] touch: cannot touch '${state}/planted': Read-only file system\n` +
          `[stderr] ${BASH ?? ""}: line 1: ${state}/run.jsonl: Read-only file system\n`,
      );
      expect(existsSync(join(state, "planted"))).toBe(false);
      expect(await readFile(join(state, "run.jsonl"), "utf8")).toBe(JOURNAL);
    });

    it("hidden, it is an empty read-only directory: the journals cannot be read or written", async () => {
      const result = await run(
        `ls -A ${state}; cat ${state}/run.jsonl; touch ${state}/planted; echo end`,
        [state],
      );
      expect(result.output).toBe(
        `[stderr] cat: ${state}/run.jsonl: No such file or directory\n` +
          `[stderr] touch: cannot touch '${state}/planted': Read-only file system\n` +
          "end\n",
      );
      expect(existsSync(join(state, "planted"))).toBe(false);
    });
  },
);
