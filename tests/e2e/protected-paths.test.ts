/**
 * Protected paths through the real CLI: git metadata (named `.git` or not) and the harness's own
 * files. In chapter 3 a write there is denied at the boundary, before any rule or prompt, and
 * audited as such; in chapter 2 the tool refuses it with `protected_path`.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { linesOf, serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";
import { withEnglishMessages } from "../support/english-messages.js";

const e2e = useAgentFixture();

const QUESTION = "Allow this call? [y/N] ";
const GIT_DENIED =
  "Writing git metadata is forbidden: a hook or config there would run on the host";
const HARNESS_DENIED =
  "Writing the harness's own files (its audit log, recording or install) is forbidden";
const HOOK = "#!/bin/sh\ntouch /tmp/pwned\n";

function write(id: string, path: string, content = HOOK) {
  return { id, name: "write_file", arguments: { path, content } };
}

/** A checkout, a bare repository and a separate git dir, each made by git itself. */
function makeRepositories(workspace: string): void {
  execFileSync("git", ["init", "-q", workspace]);
  execFileSync("git", ["init", "-q", "--bare", join(workspace, "server.git")]);
  execFileSync("git", [
    "init",
    "-q",
    "--separate-git-dir",
    join(workspace, "app-gitdir"),
    join(workspace, "app"),
  ]);
}

describe.skipIf(!isPtyAvailable())(`chapter 3 in a real terminal ${PTY_REASON}`, () => {
  it("denies protected writes at the boundary: no prompt, audited as deny (protected-path)", async () => {
    const { workspace } = e2e.dir;
    makeRepositories(workspace);
    const log = join(workspace, "audit.jsonl");
    e2e.server.script(
      chatToolCallsReply([
        write("call_hook", ".git/hooks/pre-commit"),
        write("call_bare", "server.git/hooks/post-checkout"),
        write("call_gitdir", "app-gitdir/config", "[core]\n\tfsmonitor = touch /tmp/pwned\n"),
        write("call_log", "audit.jsonl", '{"forged":true}\n'),
        write("call_note", "note.txt", "hello\n"),
      ]),
      chatTextReply("Finished."),
    );

    const run = await runInPty(e2e.argv(["--audit-log", log, "--prompt", "Plant a hook"]), {
      env: serverEnv(e2e.server.baseURL),
      prompt: "[y/N] ",
      answers: ["n\r"],
    });

    expect(run.exitCode).toBe(0);
    const screen = terminalScreenLines(run.output);
    // The one question is the ordinary write's; the protected ones were never put to the person.
    expect(run.output.split(QUESTION)).toHaveLength(2);
    expect(screen.filter((line) => line.startsWith("Tool call needs approval"))).toEqual([
      "Tool call needs approval: write_file",
    ]);
    expect(screen.filter((line) => line.startsWith("[Permission] "))).toEqual([
      `[Permission] write_file: deny (protected-path) - ${GIT_DENIED}`,
      `[Permission] write_file: deny (protected-path) - ${GIT_DENIED}`,
      `[Permission] write_file: deny (protected-path) - ${GIT_DENIED}`,
      `[Permission] write_file: deny (protected-path) - ${HARNESS_DENIED}`,
      "[Permission] write_file: deny (terminal-approval) - User denied this tool call",
    ]);
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_hook: `Error [permission_denied]: ${GIT_DENIED}`,
      call_bare: `Error [permission_denied]: ${GIT_DENIED}`,
      call_gitdir: `Error [permission_denied]: ${GIT_DENIED}`,
      call_log: `Error [permission_denied]: ${HARNESS_DENIED}`,
      call_note: "Error [permission_denied]: User denied this tool call",
    });
    const audited = linesOf(await readFile(log, "utf8"))
      .map((line) => JSON.parse(line) as { callId: string; behavior?: string; source?: string })
      .filter((record) => record.behavior !== undefined)
      .map((record) => [record.callId, record.behavior, record.source]);
    expect(audited).toEqual([
      ["call_hook", "deny", "protected-path"],
      ["call_bare", "deny", "protected-path"],
      ["call_gitdir", "deny", "protected-path"],
      ["call_log", "deny", "protected-path"],
      ["call_note", "deny", "terminal-approval"],
    ]);
    expect(existsSync(join(workspace, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(existsSync(join(workspace, "server.git", "hooks", "post-checkout"))).toBe(false);
    expect(await readFile(join(workspace, "app-gitdir", "config"), "utf8")).not.toContain(
      "fsmonitor",
    );
  });
});

describe("chapter 2: the tools refuse git metadata not named .git and the harness's files", () => {
  it("a bare repository, a separate git dir, a layout being built, the recording", async () => {
    const { workspace } = e2e.dir;
    makeRepositories(workspace);
    const recording = join(workspace, "session.jsonl");
    e2e.server.script(
      chatToolCallsReply([
        write("call_bare", "server.git/config", "[core]\n\tfsmonitor = touch /tmp/pwned\n"),
        write("call_gitdir", "app-gitdir/hooks/pre-commit"),
        // A git dir built from nothing: the write that completes HEAD + objects/ + refs/ fails.
        write("call_objects", "evil/objects/info/alternates", ""),
        write("call_refs", "evil/refs/heads/main", "0000000000000000000000000000000000000000\n"),
        write("call_head", "evil/HEAD", "ref: refs/heads/main\n"),
        write("call_config", "evil/config", "[core]\n\tfsmonitor = touch /tmp/pwned\n"),
        write("call_recording", "session.jsonl", "{}\n"),
      ]),
      chatTextReply("Finished."),
    );

    const run = await e2e.agent(["--chapter", "2", "--record", recording, "--prompt", "Plant"]);

    expect(run).toMatchObject({ exitCode: 0, stdout: "Finished.\n" });
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_bare:
        "Error [protected_path]: path is inside a git directory (server.git), which the agent may not change: server.git/config",
      call_gitdir:
        "Error [protected_path]: path is inside a git directory (app-gitdir), which the agent may not change: app-gitdir/hooks/pre-commit",
      call_objects: "Wrote 0 UTF-8 bytes to evil/objects/info/alternates",
      call_refs: "Wrote 41 UTF-8 bytes to evil/refs/heads/main",
      call_head:
        "Error [protected_path]: path would make evil a git directory, which the agent may not create: evil/HEAD",
      call_config: "Wrote 37 UTF-8 bytes to evil/config",
      call_recording:
        "Error [protected_path]: path is one of the harness's own files (its audit log, recording or install), which the agent may not change: session.jsonl",
    });
    expect(await readFile(join(workspace, "server.git", "config"), "utf8")).not.toContain(
      "fsmonitor",
    );
    expect(existsSync(join(workspace, "app-gitdir", "hooks", "pre-commit"))).toBe(false);
    expect(existsSync(join(workspace, "evil", "HEAD"))).toBe(false);
    // Without HEAD git does not take evil for a repository, so its config is only a file.
    await mkdir(join(workspace, "evil", "sub"));
    expect(() =>
      execFileSync("git", ["rev-parse", "--git-dir"], {
        cwd: join(workspace, "evil", "sub"),
        env: withEnglishMessages({ ...process.env, GIT_CEILING_DIRECTORIES: workspace }),
        stdio: "pipe",
      }),
    ).toThrow(/not a git repository/);
    expect(linesOf(await readFile(recording, "utf8"))).toHaveLength(2);
  });
});
