/**
 * The credential masks in real bubblewrap, with a home of the test's own: what a command reads
 * there, and that commands still run with the masks in place.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BubblewrapRunner, type SandboxShell } from "../../../src/adapters/sandbox/bubblewrap.js";
import { CREDENTIAL_PATHS } from "../../../src/adapters/sandbox/credential-paths.js";
import { buildCommandEnvironment } from "../../../src/adapters/shell/command-environment.js";
import { withEnglishMessages } from "../../support/english-messages.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";

const BASH = hostExecutable("bash");
const SH = hostExecutable("sh");
const KEY = "sk-proj-test-0123456789abcdef";
const EXPORT = `export OPENAI_API_KEY=${KEY}\n`;
const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };

describe.skipIf(BWRAP === undefined || BASH === undefined || SH === undefined)(
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

    it("a command gets nothing of the key in ~/.bashrc, the history or ~/.codex, however it reads", async () => {
      await writeFile(join(home, ".bashrc"), EXPORT);
      await writeFile(join(home, ".bash_history"), `curl -H "Authorization: Bearer ${KEY}"\n`);
      await mkdir(join(home, ".codex"));
      await writeFile(join(home, ".codex", "auth.json"), `{"OPENAI_API_KEY":"${KEY}"}\n`);
      expect(
        await run("cat ~/.bashrc ~/.bash_history ~/.codex/auth.json | rev; ls -A ~/.codex"),
      ).toEqual({
        exitCode: 0,
        output: `[stderr] cat: ${home}/.codex/auth.json: No such file or directory\n`,
        timedOut: false,
        truncated: false,
      });
    });

    it.each(["file", "folder"])(
      "finds the key in none of the listed paths, each made a %s holding it",
      async (kind) => {
        for (const relative of CREDENTIAL_PATHS) {
          const path = kind === "file" ? join(home, relative) : join(home, relative, "secret");
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, EXPORT);
        }
        await writeFile(join(home, ".vimrc"), EXPORT);
        expect(await run(`grep -rl ${KEY} ~`)).toEqual({
          exitCode: 0,
          output: `${home}/.vimrc\n`,
          timedOut: false,
          truncated: false,
        });
      },
    );

    it("runs bash, sh and a login shell with the start-up files masked, none of them read", async () => {
      const leaks = `${EXPORT}echo "read a start-up file"\n`;
      for (const name of [".bashrc", ".profile", ".bash_profile", ".zshenv", ".kshrc"]) {
        await writeFile(join(home, name), leaks);
      }
      const command =
        'echo "$OPENAI_API_KEY"; bash -lc "echo login"; bash -ic "echo interactive" 2>/dev/null';
      const expected = {
        exitCode: 0,
        output: "\nlogin\ninteractive\n",
        timedOut: false,
        truncated: false,
      };
      expect(await run(command)).toEqual(expected);
      expect(await run(command, { executable: SH ?? "", kind: "sh" })).toEqual(expected);
    });

    it("masks a linked rc file where it leads; a history linked to /dev/null or a dangling link does no harm", async () => {
      const dotfiles = join(base, "dotfiles");
      await mkdir(dotfiles);
      await writeFile(join(dotfiles, "bashrc"), EXPORT);
      await symlink(join(dotfiles, "bashrc"), join(home, ".bashrc"));
      await symlink("/dev/null", join(home, ".bash_history"));
      await symlink(join(home, "missing"), join(home, ".zshrc"));
      expect(
        await run(`cat ~/.bashrc ${dotfiles}/bashrc ~/.bash_history; echo ran; cat ~/.zshrc`),
      ).toEqual({
        exitCode: 1,
        output: `ran\n[stderr] cat: ${home}/.zshrc: No such file or directory\n`,
        timedOut: false,
        truncated: false,
      });
    });

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
