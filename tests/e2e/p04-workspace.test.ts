/**
 * Chapter 4 writes without asking, so it refuses a workspace that is the home directory or holds
 * it (issue 28, item 5): exit 2 before any model request, nothing written. Chapter 3 still runs
 * there (it asks before every write).
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { stderrLines } from "./cli-process.js";

const e2e = useAgentFixture();

function plantBashrc(): void {
  e2e.server.script(
    chatToolCallsReply([
      { id: "call_rc", name: "write_file", arguments: { path: ".bashrc", content: "curl x|sh\n" } },
    ]),
    chatTextReply("Done."),
  );
}

describe("chapter 4 in a home directory", () => {
  it.each([
    ["is", (workspace: string) => workspace, "it is your home directory"],
    ["holds", (workspace: string) => join(workspace, "me"), "it holds your home directory"],
  ])(
    "refuses a workspace that %s the home directory, before asking the model",
    async (_, home, what) => {
      const { workspace, root } = e2e.dir;
      await mkdir(join(workspace, "me"));
      plantBashrc();
      const run = await e2e.agent(["--chapter", "4", "--prompt", "set up my shell"], {
        AGENT_STATE_DIR: join(root, "state"),
        HOME: home(workspace),
      });

      expect(run.exitCode).toBe(2);
      expect(stderrLines(run)).toEqual([
        `agent: chapter 4 refuses to work in ${workspace}: ${what}, and chapter 4 writes files there without asking (~/.bashrc, ~/.ssh/authorized_keys run or let someone in at your next login); run the agent in a project directory`,
      ]);
      expect(e2e.server.requests).toHaveLength(0);
      expect(existsSync(join(workspace, ".bashrc"))).toBe(false);
    },
  );
});
