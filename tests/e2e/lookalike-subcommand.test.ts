/**
 * `agent resme`, `agent run`, `agent help`: a word that looks like a subcommand gets "did you
 * mean" (exit 2) and never a model request; a task of several words is still a task.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

describe("a word that looks like a subcommand", () => {
  it.each([
    [
      ["resme"],
      '"resme" looks like a command, not a task: did you mean agent resume? (a one-word task: agent --prompt "resme")',
    ],
    [
      ["run"],
      '"run" looks like a command, not a task: did you mean agent runs? (a one-word task: agent --prompt "run")',
    ],
    [
      ["help", "--quiet"],
      '"help" looks like a command, not a task: did you mean agent --help? (a one-word task: agent --prompt "help")',
    ],
  ])("agent %j is refused with a suggestion, no model request", async (argv, message) => {
    const run = await e2e.agent(argv);
    expect(run).toMatchObject({ exitCode: 2, stdout: "", stderr: `agent: ${message}\n` });
    expect(e2e.server.rawRequests).toEqual([]);
  });

  it('agent "run the tests" and agent --prompt run are tasks', async () => {
    e2e.server.script(chatTextReply("Ran."), chatTextReply("Also."));
    expect(await e2e.agent(["run the tests"])).toMatchObject({ exitCode: 0, stdout: "Ran.\n" });
    expect(await e2e.agent(["--prompt", "run"])).toMatchObject({ exitCode: 0, stdout: "Also.\n" });
    expect(e2e.server.requests.map((request) => request.messages.at(-1))).toEqual([
      { role: "user", content: "run the tests" },
      { role: "user", content: "run" },
    ]);
  });
});
