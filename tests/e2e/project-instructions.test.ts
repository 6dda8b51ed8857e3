/**
 * Issue 26: AGENTS.md at the workspace root and in the directory the agent was started in both
 * reach the first request's system message, in order, each under a heading naming its file; the
 * status line names them. One that cannot be read safely is skipped, and the line says why.
 */
import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { linesOf, runCli, serverEnv } from "./cli-process.js";

const e2e = useAgentFixture();

/** The agent started in `workspace/pkg`, working on the whole workspace, with no personal file. */
function agentIn(directory: string, args: readonly string[]) {
  return runCli(["--workspace", e2e.dir.workspace, ...args], {
    cwd: directory,
    env: serverEnv(e2e.server.baseURL, { XDG_CONFIG_HOME: join(e2e.dir.root, "config") }),
  });
}

function systemMessage(): string {
  const first = e2e.server.requests[0]?.messages[0];
  expect(first?.role).toBe("system");
  return typeof first?.content === "string" ? first.content : "";
}

describe("project instructions", () => {
  it("root and subdirectory AGENTS.md reach the system message in order, and the status line names them", async () => {
    const pkg = join(e2e.dir.workspace, "pkg");
    await mkdir(pkg);
    await writeFile(join(e2e.dir.workspace, "AGENTS.md"), "Never edit docs/.\n");
    await writeFile(join(pkg, "AGENTS.md"), "Run npm test after every change.\n");
    e2e.server.script(chatTextReply("ok"));

    const run = await agentIn(pkg, ["--prompt", "hello"]);

    expect(run.exitCode).toBe(0);
    const system = systemMessage();
    const root = system.indexOf("## AGENTS.md\n\nNever edit docs/.");
    const nearer = system.indexOf("## pkg/AGENTS.md\n\nRun npm test after every change.");
    expect(root).toBeGreaterThan(system.indexOf("# Project instructions"));
    expect(nearer).toBeGreaterThan(root);
    expect(linesOf(run.stderr)[0]).toBe("agent: instructions AGENTS.md, pkg/AGENTS.md");
  });

  it("started in a subdirectory of a git repository, loads AGENTS.md from its root down, and names them", async () => {
    // The repository is the workspace's parent's parent: root/.git, root/AGENTS.md,
    // root/packages/AGENTS.md (none), root/packages/lib = the workspace, started in it.
    const repository = join(e2e.dir.root, "repo");
    const lib = join(repository, "packages", "lib");
    await mkdir(join(repository, ".git"), { recursive: true });
    await mkdir(lib, { recursive: true });
    await writeFile(join(repository, "AGENTS.md"), "Use pnpm, never npm.\n");
    await writeFile(join(lib, "AGENTS.md"), "This package is ESM only.\n");
    e2e.server.script(chatTextReply("ok"));

    const run = await runCli(["--prompt", "hello"], {
      cwd: lib,
      env: serverEnv(e2e.server.baseURL, { XDG_CONFIG_HOME: join(e2e.dir.root, "config") }),
    });

    expect(run.exitCode).toBe(0);
    const system = systemMessage();
    const root = system.indexOf("## ../../AGENTS.md\n\nUse pnpm, never npm.");
    const own = system.indexOf("## AGENTS.md\n\nThis package is ESM only.");
    expect(root).toBeGreaterThan(system.indexOf("# Project instructions"));
    expect(own).toBeGreaterThan(root);
    expect(linesOf(run.stderr)[0]).toBe("agent: instructions ../../AGENTS.md, AGENTS.md");
  });

  it("a workspace in no git repository reads nothing above it", async () => {
    await writeFile(join(e2e.dir.root, "AGENTS.md"), "Not this project's.\n");
    e2e.server.script(chatTextReply("ok"));
    const run = await agentIn(e2e.dir.workspace, ["--prompt", "hello"]);
    expect(run.exitCode).toBe(0);
    expect(systemMessage()).not.toContain("Not this project's.");
  });

  it("the personal file comes first; no AGENTS.md leaves the system prompt as it was", async () => {
    e2e.server.script(chatTextReply("ok"), chatTextReply("ok"));
    await agentIn(e2e.dir.workspace, ["--prompt", "hello"]);
    const without = systemMessage();
    expect(without).not.toContain("# Project instructions");

    await mkdir(join(e2e.dir.root, "config", "agent-harness"), { recursive: true });
    await writeFile(
      join(e2e.dir.root, "config", "agent-harness", "AGENTS.md"),
      "Answer briefly.\n",
    );
    await writeFile(join(e2e.dir.workspace, "AGENTS.md"), "Use tabs.\n");
    e2e.server.script(chatTextReply("ok"));
    const run = await agentIn(e2e.dir.workspace, ["--prompt", "hello"]);

    const personal = join(e2e.dir.root, "config", "agent-harness", "AGENTS.md");
    const system = systemMessage();
    expect(system.startsWith(`${without}\n\n# Project instructions`)).toBe(true);
    expect(system.indexOf(`## ${personal}\n\nAnswer briefly.`)).toBeLessThan(
      system.indexOf("## AGENTS.md\n\nUse tabs."),
    );
    expect(linesOf(run.stderr)[0]).toBe(`agent: instructions ${personal}, AGENTS.md`);
  });

  it("a FIFO and a link out of the workspace are not read, never a hang, and the line says why", async () => {
    const pkg = join(e2e.dir.workspace, "pkg");
    await mkdir(pkg);
    execFileSync("mkfifo", [join(e2e.dir.workspace, "AGENTS.md")]);
    await writeFile(join(e2e.dir.outside, "secret.md"), "SECRET\n");
    await symlink(join(e2e.dir.outside, "secret.md"), join(pkg, "AGENTS.md"));
    e2e.server.script(chatTextReply("ok"));

    const run = await agentIn(pkg, ["--prompt", "hello"]);

    expect(run.exitCode).toBe(0);
    expect(systemMessage()).not.toContain("SECRET");
    expect(systemMessage()).not.toContain("# Project instructions");
    expect(linesOf(run.stderr)[0]).toBe(
      "agent: AGENTS.md not read: it is not a regular file (FIFO) · pkg/AGENTS.md not read: it is a symbolic link",
    );
  });

  it("resume goes on with the instructions the run began with, and says they changed", async () => {
    await writeFile(join(e2e.dir.workspace, "AGENTS.md"), "Version one.\n");
    const env = serverEnv(e2e.server.baseURL, {
      XDG_CONFIG_HOME: join(e2e.dir.root, "config"),
      AGENT_STATE_DIR: join(e2e.dir.root, "state"),
    });
    e2e.server.script(chatTextReply("never sent"));
    const killed = await runCli(["--workspace", e2e.dir.workspace, "--prompt", "hello"], {
      env: { ...env, AGENT_TEST_KILL_AFTER_RECORD: "run_started" },
    });
    expect(killed.signal).toBe("SIGKILL");
    await writeFile(join(e2e.dir.workspace, "AGENTS.md"), "Version two.\n");
    e2e.server.script(chatTextReply("ok"));

    const resumed = await runCli(["resume", "--workspace", e2e.dir.workspace], { env });

    expect(resumed.exitCode).toBe(0);
    expect(resumed.stderr).toContain(
      "agent: the project instructions (AGENTS.md) changed since this run began; it goes on with the instructions it began with (a new run reads the new ones)\n",
    );
    expect(systemMessage()).toContain("## AGENTS.md\n\nVersion one.");
    expect(systemMessage()).not.toContain("Version two.");
  });

  it("resume says nothing when the instructions are as they were", async () => {
    await writeFile(join(e2e.dir.workspace, "AGENTS.md"), "Same.\n");
    const env = serverEnv(e2e.server.baseURL, {
      XDG_CONFIG_HOME: join(e2e.dir.root, "config"),
      AGENT_STATE_DIR: join(e2e.dir.root, "state"),
    });
    e2e.server.script();
    await runCli(["--workspace", e2e.dir.workspace, "--prompt", "hello"], {
      env: { ...env, AGENT_TEST_KILL_AFTER_RECORD: "run_started" },
    });
    e2e.server.script(chatTextReply("ok"));
    const resumed = await runCli(["resume", "--workspace", e2e.dir.workspace], { env });
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stderr).not.toContain("changed since this run began");
  });
});
