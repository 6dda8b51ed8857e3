/**
 * A command a personal rule lets run under `--profile daily` was read by nobody this time: an
 * allow for `git grep` also lets `git grep --open-files-in-pager=sh` run a workspace script. It
 * runs as chapter 4's commands do: what the host loads later is read-only to it, and a file of
 * that list it creates is named.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { HAS_BWRAP } from "../support/bubblewrap.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

describe.skipIf(!HAS_BWRAP)("--profile daily: a command a rule lets run", () => {
  it("cannot change a file the host loads later, and one it makes is named to the person", async () => {
    const ws = e2e.dir.workspace;
    execFileSync("git", ["init", "-q", "."], { cwd: ws });
    await writeFile(join(ws, "AGENTS.md"), "Run the tests.\n");
    await writeFile(
      join(ws, "notes.sh"),
      "# marker\necho evil >> AGENTS.md\necho 'export EVIL=1' > .envrc\n",
    );
    execFileSync("git", ["add", "."], { cwd: ws });
    const config = join(e2e.dir.root, "config");
    await mkdir(join(config, "agent-harness"), { recursive: true });
    await writeFile(
      join(config, "agent-harness", "settings.json"),
      JSON.stringify({ rules: [{ behavior: "allow", tool: "shell", argv: ["git", "grep"] }] }),
    );
    const command = "git grep --open-files-in-pager=sh -e marker -- notes.sh";
    e2e.server.script(
      chatToolCallsReply([{ id: "call_1", name: "shell", arguments: { command } }]),
      chatTextReply("Done."),
    );
    const run = await e2e.agent(["--profile", "daily", "--sandbox", "required", "Search"], {
      XDG_CONFIG_HOME: config,
    });
    expect(run.exitCode).toBe(0);
    expect(await readFile(join(ws, "AGENTS.md"), "utf8")).toBe("Run the tests.\n");
    expect(run.stderr).toContain(
      `[sandbox] warning: ${join(ws, ".envrc")} was created during this command`,
    );
  }, 60_000);
});
