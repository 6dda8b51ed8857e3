/**
 * The credential masks in real bubblewrap, with a home of the test's own: what a command reads
 * there, and that commands still run with the masks in place.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BubblewrapRunner, type SandboxShell } from "../../../src/adapters/sandbox/bubblewrap.js";
import { buildCommandEnvironment } from "../../../src/adapters/shell/command-environment.js";
import { withEnglishMessages } from "../../support/english-messages.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";

const BASH = hostExecutable("bash");
const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };

describe.skipIf(BWRAP === undefined || BASH === undefined)(
  "credential masks in real bubblewrap",
  () => {
    let base: string;
    let ws: string;
    let home: string;

    beforeEach(async () => {
      // Not under /tmp: the sandbox's /tmp is its own, so a home there would not be seen at all.
      base = await mkdtemp(
        join(await realpath(existsSync("/var/tmp") ? "/var/tmp" : tmpdir()), "masks-bwrap-"),
      );
      ws = join(base, "ws");
      home = join(base, "home");
      await Promise.all([mkdir(ws), mkdir(home)]);
    });

    afterEach(async () => {
      await rm(base, { recursive: true, force: true });
    });

    function run(command: string, shell: SandboxShell = { executable: BASH ?? "", kind: "bash" }) {
      return new BubblewrapRunner({
        bwrapPath: BWRAP ?? "",
        shell,
        workspace: ws,
        home,
        network: false,
        environment: buildCommandEnvironment(
          withEnglishMessages({ PATH: process.env.PATH, HOME: home }),
          { passEnv: [], platform: "linux" },
        ),
      }).run(command, ws, LIMITS);
    }

    it("runs when a link puts one credential inside another's masked directory", async () => {
      await mkdir(join(home, ".ssh"));
      await writeFile(join(home, ".ssh", "netrc"), "machine example.com password hunter2");
      await symlink(join(home, ".ssh", "netrc"), join(home, ".netrc"));
      await symlink(join(home, ".ssh"), join(home, ".kube"));
      expect(await run("cat ~/.netrc; ls -A ~/.ssh ~/.kube; echo ran")).toEqual({
        exitCode: 0,
        output:
          `[stderr] cat: ${home}/.netrc: No such file or directory\n` +
          `${home}/.kube:\n\n${home}/.ssh:\nran\n`,
        timedOut: false,
        truncated: false,
      });
    });
  },
);
