/**
 * Issue 28 through the real CLI: files git runs from the worktree because the repository's config
 * delegates to them are refused like `.git`, in chapter 4 too (where writes do not ask); files
 * with a second hard link are neither read nor written.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { link, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();
const HOOK = "#!/bin/sh\ntouch /tmp/pwned\n";
const GIT_DENIED =
  "Writing git metadata is forbidden: a hook or config there would run on the host";
/** Chapter 4's model also reads whether the call executed, and who denied it (issue 30). */
const P04_NOTE = "(executed: no; source: protected-path; scope: this call only)";

function call(id: string, name: string, args: Record<string, unknown>) {
  return { id, name, arguments: args };
}

/** The person's global and system config stay out of the decision. */
function isolatedGit(root: string): Record<string, string> {
  return {
    GIT_CONFIG_GLOBAL: join(root, "global.gitconfig"),
    GIT_CONFIG_SYSTEM: join(root, "system.gitconfig"),
  };
}

describe("the git delegation rule through the CLI", () => {
  it("chapter 4 refuses, without asking, husky's hooks, an include and lefthook's config", async () => {
    const { workspace, root } = e2e.dir;
    const env = isolatedGit(root);
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", workspace, ...args], { env: { ...process.env, ...env } });
    git("init", "-q");
    await mkdir(join(workspace, ".husky", "_"), { recursive: true });
    await writeFile(join(workspace, ".husky", "_", "pre-commit"), "#!/bin/sh\nlefthook run\n");
    git("config", "core.hooksPath", ".husky/_");
    git("config", "include.path", "../team.gitconfig");
    e2e.server.script(
      chatToolCallsReply([
        call("call_husky", "write_file", { path: ".husky/pre-commit", content: HOOK }),
        call("call_include", "write_file", {
          path: "team.gitconfig",
          content: "[core]\n\tfsmonitor = touch /tmp/pwned\n",
        }),
        call("call_lefthook", "write_file", {
          path: "lefthook-local.yml",
          content: "pre-commit:\n  commands:\n    x:\n      run: touch /tmp/pwned\n",
        }),
        call("call_note", "write_file", { path: "notes.txt", content: "hello\n" }),
      ]),
      chatTextReply("Finished."),
    );

    const run = await e2e.agent(["--chapter", "4", "--prompt", "Set up hooks"], {
      ...env,
      AGENT_STATE_DIR: join(root, "state"),
    });

    expect(run.exitCode).toBe(0);
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_husky: `Error [permission_denied]: ${GIT_DENIED} ${P04_NOTE}`,
      call_include: `Error [permission_denied]: ${GIT_DENIED} ${P04_NOTE}`,
      call_lefthook: `Error [permission_denied]: ${GIT_DENIED} ${P04_NOTE}`,
      call_note: "Wrote 6 UTF-8 bytes to notes.txt",
    });
    expect(run.stderr).not.toContain("[y/N]");
    for (const planted of [".husky/pre-commit", "team.gitconfig", "lefthook-local.yml"]) {
      expect(existsSync(join(workspace, planted))).toBe(false);
    }
  });
});

describe("hard links", () => {
  it("read_file and edit_file refuse a file with a second name outside; write_file replaces the name", async () => {
    const { workspace, root } = e2e.dir;
    const outside = join(root, "outside-secret.txt");
    await writeFile(outside, "secret\n");
    await link(outside, join(workspace, "notes.txt"));
    e2e.server.script(
      chatToolCallsReply([
        call("call_read", "read_file", { path: "notes.txt" }),
        call("call_edit", "edit_file", {
          path: "notes.txt",
          old_string: "secret",
          new_string: "public",
        }),
        call("call_write", "write_file", { path: "notes.txt", content: "x\n" }),
      ]),
      chatTextReply("Finished."),
    );

    const run = await e2e.agent(["--chapter", "2", "--prompt", "Read the notes"]);

    expect(run.exitCode).toBe(0);
    const refused =
      "Error [hard_link]: notes.txt has 2 hard links; another name for the same file may be outside the workspace, so the file tools do not read or edit a file with more than one name. write_file replaces the name with a new file of its own";
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_read: refused,
      call_write: "Wrote 2 UTF-8 bytes to notes.txt",
      call_edit: refused,
    });
    // The write replaced the name (tests/security/hostile-model.test.ts): the outside file is
    // untouched either way.
    expect(await readFile(outside, "utf8")).toBe("secret\n");
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("x\n");
  });
});
