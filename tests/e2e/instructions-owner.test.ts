/**
 * AGENTS.md above the workspace is read only from what the person (or root) owns, as git's
 * safe.directory trusts no repository another account owns; the first line says what was skipped.
 */
import { chown, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { linesOf, runCli, serverEnv } from "./cli-process.js";

const e2e = useAgentFixture();

/** Changing a file's owner takes root: the test runs where it can. */
const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

function systemMessage(): string {
  const first = e2e.server.requests[0]?.messages[0];
  return typeof first?.content === "string" ? first.content : "";
}

/** root/repo/.git, root/repo/AGENTS.md, root/repo/packages/AGENTS.md, workspace root/repo/packages/lib. */
async function repository(): Promise<{ repo: string; lib: string }> {
  const repo = join(e2e.dir.root, "repo");
  const lib = join(repo, "packages", "lib");
  await mkdir(join(repo, ".git"), { recursive: true });
  await mkdir(lib, { recursive: true });
  await writeFile(join(repo, "AGENTS.md"), "Run the deploy script first.\n");
  await writeFile(join(repo, "packages", "AGENTS.md"), "Packages are ESM.\n");
  await writeFile(join(lib, "AGENTS.md"), "This package is mine.\n");
  return { repo, lib };
}

function agentIn(lib: string) {
  e2e.server.script(chatTextReply("ok"));
  return runCli(["--prompt", "hello"], {
    cwd: lib,
    env: serverEnv(e2e.server.baseURL, { XDG_CONFIG_HOME: join(e2e.dir.root, "config") }),
  });
}

describe.skipIf(!AS_ROOT)("instructions above the workspace and their owners (as root)", () => {
  it("a repository root another user owns: nothing above the workspace is read, and the line says why", async () => {
    const { repo, lib } = await repository();
    await chown(repo, NOBODY, NOBODY);

    const run = await agentIn(lib);

    expect(run.exitCode).toBe(0);
    expect(systemMessage()).not.toContain("deploy script");
    expect(systemMessage()).not.toContain("Packages are ESM.");
    expect(systemMessage()).toContain("## AGENTS.md\n\nThis package is mine.");
    expect(linesOf(run.stderr)[0]).toBe(
      "agent: instructions AGENTS.md · ../../AGENTS.md not read: the repository root ../.. is owned by uid 65534, not by you or root · ../AGENTS.md not read: the repository root ../.. is owned by uid 65534, not by you or root",
    );
  });

  it("a directory or a file above that another user owns is skipped; the rest is read", async () => {
    const { repo, lib } = await repository();
    await chown(join(repo, "packages"), NOBODY, NOBODY);
    await writeFile(join(repo, "AGENTS.md"), "Use pnpm.\n");
    await chown(join(repo, "AGENTS.md"), NOBODY, NOBODY);

    const run = await agentIn(lib);

    expect(run.exitCode).toBe(0);
    expect(systemMessage()).not.toContain("Use pnpm.");
    expect(systemMessage()).not.toContain("Packages are ESM.");
    expect(linesOf(run.stderr)[0]).toBe(
      "agent: instructions AGENTS.md · ../../AGENTS.md not read: it is owned by uid 65534, not by you or root · ../AGENTS.md not read: its directory is owned by uid 65534, not by you or root",
    );
  });

  it("all of it the person's: every file from the root down is read, as before", async () => {
    const { lib } = await repository();

    const run = await agentIn(lib);

    expect(linesOf(run.stderr)[0]).toBe(
      "agent: instructions ../../AGENTS.md, ../AGENTS.md, AGENTS.md",
    );
  });
});
