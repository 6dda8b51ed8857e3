/**
 * A command must not turn the workspace into a repository where there was none (root-git-holds.ts):
 * the person's next git command there would run what its hooks and config name, on the host. Its
 * top `.git` and `HEAD` are held for the command; a repository it makes further down is named in
 * its result.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  makePlaceholders,
  removePlaceholders,
} from "../../../src/adapters/sandbox/absent-placeholders.js";
import { rootGitNamesToHold } from "../../../src/adapters/sandbox/root-git-holds.js";
import { BWRAP_REASON, HAS_BWRAP, hostEnvironmentRunner } from "../../support/bubblewrap.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";
import { initIsolatedRepository } from "../../support/isolated-git.js";

const BASH = hostExecutable("bash");
const GIT = hostExecutable("git");
const LIMITS = { timeoutMs: 30_000, maxOutputBytes: 64 * 1024 };

let base: string;
let ws: string;

beforeEach(async () => {
  base = await mkdtemp(join(await realpath(tmpdir()), "root-git-holds-"));
  ws = join(base, "ws");
  mkdirSync(ws);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(base, { recursive: true, force: true });
});

describe("rootGitNamesToHold", () => {
  it("holds .git where there is none, and nothing where the workspace is a repository", () => {
    expect(rootGitNamesToHold(ws)).toEqual([join(ws, ".git")]);
    mkdirSync(join(ws, ".git", "objects"), { recursive: true });
    expect(rootGitNamesToHold(ws)).toEqual([]);
  });

  it("holds an empty .git folder (another run's placeholder), not one with anything in it", () => {
    mkdirSync(join(ws, ".git"));
    expect(rootGitNamesToHold(ws)).toEqual([join(ws, ".git")]);
    writeFileSync(join(ws, ".git", "config"), "");
    expect(rootGitNamesToHold(ws)).toEqual([]);
  });

  it("holds nothing beside a linked worktree's .git file", () => {
    writeFileSync(join(ws, ".git"), `gitdir: ${join(base, "elsewhere")}\n`);
    expect(rootGitNamesToHold(ws)).toEqual([]);
  });
});

describe("a .git placeholder is an empty folder", () => {
  it("made empty and new, and removed after", () => {
    const made = makePlaceholders([join(ws, ".git")]);
    expect(readdirSync(join(ws, ".git"))).toEqual([]);
    expect(removePlaceholders(made)).toEqual([]);
    expect(existsSync(join(ws, ".git"))).toBe(false);
  });

  it("one that something filled in the meantime is left and named", () => {
    const made = makePlaceholders([join(ws, ".git")]);
    writeFileSync(join(ws, ".git", "config"), "[core]\n");
    expect(removePlaceholders(made)).toEqual([
      `warning: ${join(ws, ".git")} is not the empty placeholder the harness made there, so it ` +
        `was left as it is; the host loads or runs what is there later: check it`,
    ]);
    expect(existsSync(join(ws, ".git", "config"))).toBe(true);
  });
});

describe.skipIf(!HAS_BWRAP || BWRAP === undefined || BASH === undefined || GIT === undefined)(
  `in real bubblewrap ${BWRAP_REASON}`,
  () => {
    const runner = () =>
      hostEnvironmentRunner({ bwrapPath: BWRAP ?? "", bash: BASH ?? "", workspace: ws });

    it("a workspace that is no repository: a command cannot make .git; a bare layout is named", async () => {
      const result = await runner().run(
        "git init -q . 2>/dev/null && echo INIT; (mkdir -p .git/hooks) 2>/dev/null && echo HOOKS; " +
          "(rmdir .git) 2>/dev/null && echo REMOVED; echo ok > notes.txt && echo NOTES",
        ws,
        LIMITS,
      );
      expect(result.output).toBe("NOTES\n");
      // Held for the command only: nothing is left behind, and git finds no repository here.
      expect(readdirSync(ws)).toEqual(["notes.txt"]);
      expect(() =>
        execFileSync("git", ["rev-parse", "--git-dir"], { cwd: ws, stdio: "pipe" }),
      ).toThrow();

      const bare = await runner().run(
        "mkdir objects refs && echo 'ref: refs/heads/main' > HEAD && echo BARE",
        ws,
        LIMITS,
      );
      expect({ output: bare.output, notes: bare.notes }).toEqual({
        output: "BARE\n",
        notes: [
          `warning: after this command: The sandbox cannot keep the git metadata in ` +
            `${ws} read-only: the workspace itself is laid out as a git directory (HEAD, objects, ` +
            "refs); run the agent in a checkout, or run with --sandbox off. Git may run hooks or " +
            `config this command put there at your next git command in ${ws}: check it before then`,
        ],
      });
    });

    it("git in the sandbox takes the held .git for no repository, not for a broken one", async () => {
      initIsolatedRepository(base, base);
      const result = await runner().run("git rev-parse --show-toplevel", ws, LIMITS);
      // Only the workspace of /tmp is in the sandbox, and git's search stops at a mount point, as
      // without the hold; an empty `.git` file would have been "invalid gitfile format" instead.
      expect(result.output).toContain("[stderr] fatal: not a git repository (or any parent");
      expect(result.output).not.toContain("gitfile");
      expect(existsSync(join(ws, ".git"))).toBe(false);
    });

    it("a repository made further down is named in the result; the next command finds it read-only", async () => {
      const first = await runner().run("git init -q sub && echo MADE", ws, LIMITS);
      expect({ output: first.output, notes: first.notes }).toEqual({
        output: "MADE\n",
        notes: [
          `warning: ${join(ws, "sub", ".git")} was made during this command: git runs ` +
            "the hooks and programs its config names at your next git command there, outside the " +
            "sandbox: check it before then",
        ],
      });
      const second = await runner().run(
        "(echo x > sub/.git/hooks/pre-commit) 2>/dev/null && echo WROTE; echo done",
        ws,
        LIMITS,
      );
      expect(second.output).toBe("done\n");
    });

    it("another run's command holding the top .git meanwhile is not taken for a repository made", async () => {
      // Two runs, each with a ledger of its own, as a run and the person's own pwsh would be.
      const waitFor = (name: string) =>
        vi.waitFor(
          () => {
            if (!existsSync(join(ws, name))) throw new Error(`waiting for ${name}`);
          },
          { timeout: 20_000, interval: 10 },
        );
      const a = runner().run("touch started; until [ -e end ]; do sleep 0.02; done", ws, LIMITS);
      await waitFor("started");
      expect(existsSync(join(ws, ".git"))).toBe(true);
      const b = await runner().run("echo hi", ws, LIMITS);
      writeFileSync(join(ws, "end"), "");
      expect({ output: b.output, notes: b.notes }).toEqual({ output: "hi\n", notes: undefined });
      expect((await a).notes).toBeUndefined();
    });

    it("an empty .git folder no run made (the person's) is bound as it is and kept", async () => {
      mkdirSync(join(ws, ".git"));
      const result = await runner().run(
        "(touch .git/config) 2>/dev/null && echo WROTE; echo done",
        ws,
        LIMITS,
      );
      expect(result.output).toBe("done\n");
      expect(readdirSync(join(ws, ".git"))).toEqual([]);
    });
  },
);
