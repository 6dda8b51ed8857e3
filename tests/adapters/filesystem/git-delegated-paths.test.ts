/**
 * The git delegation rule at the file tools: a worktree file that git, as this repository is
 * configured, runs or reads as config is refused as `protected_path`, like `.git` itself.
 * Repositories are made and configured by git itself (`git config` runs no hook).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WorkspaceFileError } from "../../../src/core/ports/filesystem.js";
import { NodeWorkspaceFileSystem } from "../../../src/adapters/filesystem/node-filesystem.js";
import { parseGitConfig } from "../../../src/adapters/filesystem/git-config-file.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";
import { initIsolatedRepository } from "../../support/isolated-git.js";

const HOOK = "#!/bin/sh\ntouch /tmp/pwned\n";

let temp: TempWorkspace;
let files: NodeWorkspaceFileSystem;

function git(...args: string[]): void {
  execFileSync("git", ["-C", temp.ws, ...args], { stdio: "ignore" });
}

/** The write is refused and the file is as it was (missing, or with its old content). */
async function refusal(path: string): Promise<string> {
  const absolute = join(temp.ws, path);
  const before = existsSync(absolute) ? readFileSync(absolute, "utf8") : undefined;
  const error: unknown = await files.writeFile(path, HOOK).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WorkspaceFileError);
  expect((error as WorkspaceFileError).code).toBe("protected_path");
  expect(existsSync(absolute) ? readFileSync(absolute, "utf8") : undefined).toBe(before);
  return (error as WorkspaceFileError).message;
}

beforeEach(async () => {
  temp = await makeTempWorkspace();
  initIsolatedRepository(temp.base, temp.ws);
  files = new NodeWorkspaceFileSystem(temp.ws);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await temp.cleanup();
});

describe("the file tools refuse what git runs or reads from the worktree", () => {
  it("husky v9: core.hooksPath .husky/_ protects its wrappers and the hooks they run", async () => {
    await mkdir(join(temp.ws, ".husky", "_"), { recursive: true });
    await writeFile(join(temp.ws, ".husky", "_", "h"), "#!/bin/sh\n# husky\n");
    git("config", "core.hooksPath", ".husky/_");

    expect(await refusal(".husky/pre-commit")).toBe(
      `path is a file git runs or reads as config on the person's machine at the next git command (husky's hooks, run through core.hooksPath in ${join(temp.ws, ".git", "config")}), which the agent may not change: .husky/pre-commit`,
    );
    await refusal(".husky/_/pre-commit");
    await expect(files.writeFile("src/index.ts", "export {};\n")).resolves.toBe(11);
  });

  it("a hooks directory that does not exist yet is protected all the same", async () => {
    git("config", "core.hooksPath", "githooks");
    await refusal("githooks/pre-commit");
  });

  it("include.path and includeIf.*.path, followed through included files", async () => {
    git("config", "include.path", "../shared.gitconfig");
    git("config", "includeIf.gitdir:/nowhere/.path", "../conditional.gitconfig");
    await writeFile(
      join(temp.ws, "shared.gitconfig"),
      "[include]\n\tpath = config/second.gitconfig\n",
    );
    await mkdir(join(temp.ws, "config"));
    await writeFile(
      join(temp.ws, "config", "second.gitconfig"),
      '[core]\n\tfsmonitor = "tools/watch --fast"\n',
    );

    await refusal("conditional.gitconfig");
    await refusal("config/second.gitconfig");
    // The included file's own command, named by a path.
    await refusal("tools/watch");
    await refusal("shared.gitconfig");
  });

  it("commands named by a path in config: fsmonitor, filters, aliases", async () => {
    git("config", "core.fsmonitor", "./scripts/fsmonitor.sh");
    git("config", "filter.lfs2.smudge", "bin/smudge %f");
    git("config", "alias.up", "!./scripts/up.sh --all");
    git("config", "diff.js.textconv", "node tools/textconv.js --mode=x");
    git("config", "alias.lint", "!sh -c 'exec hooks/lint.sh'");
    await refusal("scripts/fsmonitor.sh");
    await refusal("bin/smudge");
    await refusal("scripts/up.sh");
    // A script an interpreter runs, not only the program itself.
    await refusal("tools/textconv.js");
    await refusal("hooks/lint.sh");
  });

  it("the global config's relative core.hooksPath names worktree files too", async () => {
    await writeFile(join(temp.base, "global.gitconfig"), "[core]\n\thooksPath = .githooks\n");
    await refusal(".githooks/pre-push");
  });

  it("lefthook's and pre-commit's configs when their shims are installed as hooks", async () => {
    const hooks = join(temp.ws, ".git", "hooks");
    await writeFile(join(hooks, "pre-commit"), '#!/bin/sh\ncall_lefthook run "pre-commit" "$@"\n');
    await writeFile(
      join(hooks, "pre-push"),
      "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\nARGS=(hook-impl --config=ci/hooks.yaml --hook-type=pre-push)\n",
    );
    await refusal("lefthook-local.yml");
    await refusal(".lefthook.yaml");
    await refusal(".lefthook/pre-commit/script.sh");
    await refusal(".pre-commit-config.yaml");
    await refusal("ci/hooks.yaml");
  });

  it("a repository above the workspace delegates into it", async () => {
    git("config", "core.hooksPath", "app/hooks");
    await mkdir(join(temp.ws, "app"));
    const inner = new NodeWorkspaceFileSystem(join(temp.ws, "app"));
    await expect(inner.writeFile("hooks/pre-commit", HOOK)).rejects.toMatchObject({
      code: "protected_path",
    });
  });

  it("a .git that is a link to a git dir, or to a gitdir: file, delegates as git follows it", async () => {
    git("config", "core.hooksPath", "githooks");
    const moved = join(temp.base, "moved.git");
    await rename(join(temp.ws, ".git"), moved);
    await symlink(moved, join(temp.ws, ".git"));
    expect(await refusal("githooks/pre-commit")).toContain(
      `core.hooksPath in ${join(moved, "config")}`,
    );

    const pointer = join(temp.base, "pointer");
    await writeFile(pointer, `gitdir: ${moved}\n`);
    await rename(join(temp.ws, ".git"), join(temp.base, "old-link"));
    await symlink(pointer, join(temp.ws, ".git"));
    await refusal("githooks/pre-commit");
  });

  it("scripts an interpreter is given by a bare name: sh fsmon-hook, !sh hook, env bash x", async () => {
    git("config", "core.fsmonitor", "sh fsmon-hook");
    git("config", "alias.x", "!sh hook");
    git("config", "filter.f.clean", "env bash -e cleaner --level=strict-level");
    git("config", "core.sshCommand", "python3 -u ssh-wrapper");
    const config = join(temp.ws, ".git", "config");
    expect(await refusal("fsmon-hook")).toBe(
      `path is a file git runs or reads as config on the person's machine at the next git command (core.fsmonitor in ${config} names it), which the agent may not change: fsmon-hook`,
    );
    await refusal("hook");
    await refusal("cleaner");
    await refusal("strict-level");
    await refusal("ssh-wrapper");
  });

  it("names, formats and git's own arguments are not taken for scripts", async () => {
    git("config", "user.name", "Ada Lovelace");
    git("config", "pretty.short", "format:%h summary");
    git("config", "alias.co", "checkout main");
    git("config", "core.editor", "vim");
    for (const path of ["Lovelace", "summary", "main", "vim"]) {
      await expect(files.writeFile(path, HOOK)).resolves.toBe(HOOK.length);
    }
  });

  it("without delegation, the same names are ordinary files", async () => {
    for (const path of ["lefthook-local.yml", ".husky/pre-commit", "scripts/up.sh"]) {
      await expect(files.writeFile(path, HOOK)).resolves.toBe(HOOK.length);
    }
  });
});

describe("parseGitConfig reads git's syntax", () => {
  it("sections, subsections, quotes, escapes, comments, continuations, booleans", () => {
    const text = [
      "[core] hooksPath = .husky/_ # husky",
      '[includeIf "gitdir:~/work/"]',
      '\tpath = "../a b.gitconfig" ; comment',
      "[Alias]",
      "\tup = !./x.sh \\",
      "  --all",
      "[branch.main]",
      "\trebase",
    ].join("\n");
    expect(parseGitConfig(text)).toEqual([
      { section: "core", subsection: undefined, key: "hookspath", value: ".husky/_" },
      {
        section: "includeif",
        subsection: "gitdir:~/work/",
        key: "path",
        value: "../a b.gitconfig",
      },
      { section: "alias", subsection: undefined, key: "up", value: "!./x.sh   --all" },
      { section: "branch", subsection: "main", key: "rebase", value: "true" },
    ]);
  });
});
