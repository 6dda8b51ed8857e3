/**
 * The git delegation rule in the real sandbox: what a repository's config makes git run or read
 * from the worktree is read-only to commands, like `.git`, and read again for each command.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BubblewrapRunner } from "../../../src/adapters/sandbox/bubblewrap.js";
import { buildCommandEnvironment } from "../../../src/adapters/shell/command-environment.js";
import { withNoteLines } from "../../../src/core/tools/command-notes.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";
import { initIsolatedRepository } from "../../support/isolated-git.js";

const BASH = hostExecutable("bash");
const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };

describe.skipIf(BWRAP === undefined || BASH === undefined)(
  "git-delegated worktree files in real bubblewrap",
  () => {
    let base: string;
    let ws: string;

    beforeEach(async () => {
      base = await mkdtemp(join(await realpath(tmpdir()), "bwrap-git-"));
      ws = join(base, "ws");
      initIsolatedRepository(base, ws);
    });

    afterEach(async () => {
      vi.unstubAllEnvs();
      await rm(base, { recursive: true, force: true });
    });

    function git(directory: string, ...args: string[]): void {
      execFileSync("git", ["-C", directory, ...args], { stdio: "ignore" });
    }

    /** What the model reads of the command's run: its output, then the sandbox's notes. */
    async function run(command: string): Promise<string> {
      const runner = new BubblewrapRunner({
        bwrapPath: BWRAP ?? "",
        shell: { executable: BASH ?? "", kind: "bash" },
        workspace: ws,
        home: homedir(),
        network: false,
        environment: buildCommandEnvironment(process.env, { passEnv: [], platform: "linux" }),
      });
      const result = await runner.run(command, ws, LIMITS);
      return withNoteLines(result.output, result.notes ?? []);
    }

    /** A shell line that tries to write `path` and prints `path` when it could not. */
    function plant(path: string): string {
      return `(mkdir -p "$(dirname ${path})" && echo evil >> ${path}) 2>/dev/null || echo ${path}`;
    }

    it("husky v9's .husky/, an included config, lefthook's config, a fsmonitor script", async () => {
      await mkdir(join(ws, ".husky", "_"), { recursive: true });
      await writeFile(join(ws, ".husky", "pre-commit"), "npm test\n");
      git(ws, "config", "core.hooksPath", ".husky/_");
      await writeFile(join(ws, "shared.gitconfig"), "[user]\n\tname = x\n");
      git(ws, "config", "include.path", "../shared.gitconfig");
      // A lefthook shim among the hooks git runs (core.hooksPath's, not .git/hooks now).
      await writeFile(join(ws, ".husky", "_", "pre-push"), "#!/bin/sh\nlefthook run pre-push\n");
      await writeFile(join(ws, "lefthook.yml"), "pre-push:\n");
      await mkdir(join(ws, "scripts"));
      git(ws, "config", "core.fsmonitor", "scripts/fsmonitor.sh");

      const targets = [
        ".husky/pre-commit",
        ".husky/_/pre-commit",
        "shared.gitconfig",
        "lefthook.yml",
        "scripts/fsmonitor.sh",
      ];
      expect(await run(targets.map(plant).join("; "))).toBe(targets.map((t) => `${t}\n`).join(""));
      expect(readFileSync(join(ws, ".husky", "pre-commit"), "utf8")).toBe("npm test\n");
      expect(existsSync(join(ws, ".husky", "_", "pre-commit"))).toBe(false);
      expect(existsSync(join(ws, "scripts", "fsmonitor.sh"))).toBe(false);
      // Everything else stays writable.
      expect(await run("echo ok > notes.txt && cat notes.txt")).toBe("ok\n");
    });

    it("a nested repository configured by an earlier command is protected at the next", async () => {
      expect(
        await run(
          "git init -q vendor/lib && mkdir vendor/lib/hooks && git -C vendor/lib config core.hooksPath hooks && echo made",
        ),
      ).toBe(
        "made\n" +
          `[sandbox] warning: ${join(ws, "vendor", "lib", ".git")} was made during this command: ` +
          "git runs the hooks and programs its config names at your next git command there, " +
          "outside the sandbox: check it before then",
      );
      expect(await run(plant("vendor/lib/hooks/post-checkout"))).toBe(
        "vendor/lib/hooks/post-checkout\n",
      );
      expect(existsSync(join(ws, "vendor", "lib", "hooks", "post-checkout"))).toBe(false);
    });
  },
);
