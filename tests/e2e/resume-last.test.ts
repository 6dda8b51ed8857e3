/**
 * `agent resume --last` (`-c`): the newest run of this workspace whatever its state. A
 * conversation killed at its `>` prompt had finished its turn, so plain `agent resume` cannot find
 * it; `--last` goes on with it, at the prompt, with the same history.
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

/** A conversation answers once, then its process is killed with SIGKILL at the `>` prompt. */
async function killedAtPrompt(): Promise<void> {
  e2e.server.script(chatTextReply("First answer."), chatTextReply("Second answer."));
  const first = TmuxTerminal.start(e2e.argv([]), { env: env(), columns: 80, rows: 24 });
  try {
    await first.waitForScreen(prompted);
    first.type("What is here?", "Enter");
    await first.waitForScreen((rows) => rows.includes("  First answer.") && prompted(rows));
    // The run lock opens with the CLI's own pid: kill exactly it, as a crash would.
    const runs = await runsDir();
    const lock = (await readdir(runs)).find((name) => name.endsWith(".lock")) ?? "";
    process.kill(Number((await readFile(join(runs, lock), "utf8")).split(" ")[0]), "SIGKILL");
    await first.waitForExit();
  } finally {
    first.close();
  }
}

describe.skipIf(!isTmuxAvailable())(`agent resume --last ${TMUX_REASON}`, () => {
  for (const flag of ["--last", "-c"]) {
    it(`${flag} goes on with a conversation killed at its prompt, which plain resume passes over`, async () => {
      await killedAtPrompt();
      const plain = await runCli(["resume", "--workspace", e2e.dir.workspace], { env: env() });
      expect(plain.exitCode).toBe(2);
      expect(plain.stderr).toBe(
        `agent: no unfinished run in ${e2e.dir.workspace} to resume (agent runs lists them; agent resume --last goes on with the newest, whatever its state)\n`,
      );

      const second = TmuxTerminal.start(
        [...e2e.argv([]).slice(0, 2), "resume", flag, "--workspace", e2e.dir.workspace],
        { env: env(), columns: 80, rows: 24 },
      );
      try {
        const screen = await second.waitForScreen(
          (rows) => rows.includes("  First answer.") && prompted(rows),
        );
        expect(screen.join("\n")).toMatch(/agent: resuming run \S+ \(completed\): What is here\?/);
        second.type("And then?", "Enter");
        await second.waitForScreen((rows) => rows.includes("  Second answer.") && prompted(rows));
        second.type("/exit", "Enter");
        await second.waitForExit();
      } finally {
        second.close();
      }
      expect(e2e.server.requests).toHaveLength(2);
      expect(e2e.server.requests[1]?.messages.slice(1)).toEqual([
        { role: "user", content: "What is here?" },
        { role: "assistant", content: "First answer." },
        { role: "user", content: "And then?" },
      ]);
    }, 60_000);
  }
});

describe.skipIf(!isTmuxAvailable())(`agent resume -c after /clear ${TMUX_REASON}`, () => {
  it("goes on at the prompt with an empty history and asks the model nothing", async () => {
    e2e.server.script(chatTextReply("First answer."), chatTextReply("After the clear."));
    const first = TmuxTerminal.start(e2e.argv([]), { env: env(), columns: 80, rows: 24 });
    try {
      await first.waitForScreen(prompted);
      first.type("hello", "Enter");
      await first.waitForScreen((rows) => rows.includes("  First answer.") && prompted(rows));
      first.type("/clear", "Enter");
      await first.waitForScreen(
        (rows) =>
          rows.includes("agent: history cleared; the next line starts afresh in this session") &&
          prompted(rows),
      );
      first.type("C-d");
      await first.waitForExit();
    } finally {
      first.close();
    }

    const second = TmuxTerminal.start(
      [...e2e.argv([]).slice(0, 2), "resume", "-c", "--workspace", e2e.dir.workspace],
      { env: env(), columns: 80, rows: 24 },
    );
    try {
      const resumedScreen = await second.waitForScreen(prompted);
      expect(e2e.server.requests).toHaveLength(1);
      expect(resumedScreen.some((row) => row.startsWith("done in"))).toBe(false);
      second.type("again", "Enter");
      await second.waitForScreen((rows) => rows.includes("  After the clear.") && prompted(rows));
      second.type("/exit", "Enter");
      await second.waitForExit();
    } finally {
      second.close();
    }
    expect(e2e.server.requests).toHaveLength(2);
    expect(e2e.server.requests[1]?.messages.slice(1)).toEqual([{ role: "user", content: "again" }]);
  }, 60_000);
});

describe("agent resume --last: usage", () => {
  it("with no run at all says so (exit 2)", async () => {
    const run = await runCli(["resume", "--last", "--workspace", e2e.dir.workspace], {
      env: env(),
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      `agent: no run in ${e2e.dir.workspace} to resume (agent runs lists them)\n`,
    );
  });

  it("refuses a run id together with --last", async () => {
    const run = await runCli(
      ["resume", "20260101T120000Z-1a2b3c4d", "-c", "--workspace", e2e.dir.workspace],
      { env: env() },
    );
    expect(run).toMatchObject({
      exitCode: 2,
      stderr: "agent: agent resume takes a run id or --last, not both\n",
    });
  });
});
