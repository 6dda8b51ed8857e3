/**
 * A `/model` switch outlives the process: a conversation switched to another model and killed is
 * resumed on that model, said in the resume's first line and asked in its next request. `--model`
 * stays refused: the journal decides the model, and it now remembers the switch.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, TmuxTerminal, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";
import { atPrompt, runsDirOf, stateEnv } from "./run-state.js";
import { runCli } from "./cli-process.js";

const e2e = useAgentFixture();

const env = (): Record<string, string> => stateEnv(e2e);
const runsDir = (): Promise<string> => runsDirOf(e2e);
const prompted = atPrompt;

const modelsAsked = (): string[] => e2e.server.requests.map((request) => request.model);

describe.skipIf(!isTmuxAvailable())(`agent resume after /model ${TMUX_REASON}`, () => {
  it("goes on with the model the conversation was switched to", async () => {
    e2e.server.script(chatTextReply("First answer."), chatTextReply("Second answer."));
    const first = TmuxTerminal.start(e2e.argv([]), { env: env(), columns: 120, rows: 24 });
    try {
      await first.waitForScreen(prompted);
      first.type("/model gpt-4o", "Enter");
      await first.waitForScreen((rows) =>
        rows.includes("agent: model gpt-4o from the next turn on"),
      );
      first.type("hello", "Enter");
      await first.waitForScreen((rows) => rows.includes("  First answer.") && prompted(rows));
      // The run lock opens with the CLI's own pid: kill exactly it, as a crash would.
      const runs = await runsDir();
      const lock = (await readdir(runs)).find((name) => name.endsWith(".lock")) ?? "";
      process.kill(Number((await readFile(join(runs, lock), "utf8")).split(" ")[0]), "SIGKILL");
      await first.waitForExit();
    } finally {
      first.close();
    }
    expect(modelsAsked()).toEqual(["gpt-4o"]);

    const second = TmuxTerminal.start(
      [...e2e.argv([]).slice(0, 2), "resume", "--last", "--workspace", e2e.dir.workspace],
      { env: env(), columns: 120, rows: 24 },
    );
    try {
      const screen = await second.waitForScreen(
        (rows) => rows.includes("  First answer.") && prompted(rows),
      );
      expect(screen).toContain(
        `agent: workspace ${e2e.dir.workspace} · chapter 3 · model gpt-4o · endpoint ${e2e.server.baseURL}`,
      );
      second.type("again", "Enter");
      await second.waitForScreen((rows) => rows.includes("  Second answer.") && prompted(rows));
      second.type("/model", "Enter");
      await second.waitForScreen((rows) => rows.includes("agent: model gpt-4o"));
      second.type("/exit", "Enter");
      await second.waitForExit();
    } finally {
      second.close();
    }
    expect(modelsAsked()).toEqual(["gpt-4o", "gpt-4o"]);
  }, 60_000);

  it("still refuses --model: the journal says which model the run is on", async () => {
    const run = await runCli(
      ["resume", "--last", "--model", "gpt-4o", "--workspace", e2e.dir.workspace],
      { env: env() },
    );
    expect(run).toMatchObject({
      exitCode: 2,
      stderr: "agent: agent resume takes --model from the run's journal; leave it out\n",
    });
  });
});
