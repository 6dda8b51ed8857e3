/**
 * A `/model` switch outlives the process: a run switched to another model and killed is resumed
 * on that model. Its journal is the real file a composed run wrote; the resume is read and decided
 * as `agent resume` does it (the journal layer of the settings) and composed by composeRun, whose
 * model client then asks a local chat-completions server.
 */
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { DEFAULT_RESOURCE_LIMITS } from "../../src/adapters/sandbox/index.js";
import { DEFAULT_SHELL_TIMEOUT_MS } from "../../src/features/shell-tool.js";
import { composeRun } from "../../src/bootstrap/compose-run.js";
import {
  existingJournal,
  lockAndReplayRun,
  modelInUse,
} from "../../src/bootstrap/open/resume-plan.js";
import { openRunStore } from "../../src/bootstrap/open/run-store.js";
import type { RunPorts, RunSettings } from "../../src/bootstrap/run-settings.js";
import { resolveSettings } from "../../src/cli/settings/resolve-settings.js";
import { composedRunSettings } from "../../src/cli/settings/run-settings.js";
import { P03 } from "../../src/core/profiles.js";
import { ChatCompletionsServer, chatTextReply } from "../support/chat-completions-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";

let dir: TempWorkspace;

/** A new chapter-3 run's settings; `contextWindow`: as `--context-window` gives it. */
function newRun(env: Record<string, string | undefined>, contextWindow?: number): RunSettings {
  return {
    profile: P03,
    workspace: dir.workspace,
    host: { env, platform: process.platform },
    model: {
      name: undefined,
      replay: undefined,
      replayLenient: false,
      record: undefined,
      requestTimeoutMs: 600_000,
      retries: 0,
    },
    sandbox: "auto",
    network: false,
    shell: "auto",
    passEnv: [],
    sandboxUnmask: [],
    sandboxLimits: DEFAULT_RESOURCE_LIMITS,
    commandTimeoutMs: DEFAULT_SHELL_TIMEOUT_MS,
    auditLog: undefined,
    stateDir: dir.outside,
    maxTurns: 5,
    contextWindow,
    startDirectory: dir.workspace,
  };
}

/** What a run needs of the terminal; `windows` gets each context window a request is measured by. */
function portsFor(announced: string[], windows: number[]): RunPorts {
  return {
    // No call is asked for: nobody is asked anything.
    approver: () => ({ decide: () => Promise.reject(new Error("nobody is asked here")) }),
    terminalAudit: { record: () => undefined },
    announce: (_profile, description) => announced.push(description),
    observer: { onContextUsage: (_tokens, window) => windows.push(window) },
  };
}
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-resumed-model-");
});
afterEach(() => dir.cleanup());

describe("a resumed run's model", () => {
  it("is the one the last /model switch chose, in the banner and in the next request", async () => {
    const server = await ChatCompletionsServer.start([
      chatTextReply("first answer"),
      chatTextReply("second answer"),
    ]);
    onTestFinished(() => server.close());
    // HOME: no settings file of the person's running the tests.
    const env = {
      PATH: process.env.PATH,
      HOME: dir.root,
      OPENAI_API_KEY: "sk-test-resumed-model",
      OPENAI_BASE_URL: server.baseURL,
    };
    const io = { env, platform: process.platform };
    const announced: string[] = [];
    const windows: number[] = [];
    const ports = portsFor(announced, windows);

    // A conversation on the default model: its first turn, then `/model gpt-4o` (journaled
    // first, as conversation-setup.ts does), then a line typed and the process killed before
    // the reply (its journal ends with the user_message).
    const first = await composeRun(newRun(env), ports);
    const runId = first.session.runId;
    try {
      await first.agent.run("hello");
      await first.session.journal.append({ type: "model_switched", model: "gpt-4o" });
      first.switchableModel?.switchTo("gpt-4o");
      await first.session.journal.append({ type: "user_message", content: "again" });
    } finally {
      first.close();
    }

    // `agent resume`: the run read back, its settings decided with the journal's layer.
    const store = openRunStore(dir.outside, io, dir.workspace);
    const path = existingJournal(store, runId) ?? "";
    const { lock, contents } = lockAndReplayRun(store, runId, path, () => undefined);
    expect(modelInUse(contents)).toBe("gpt-4o");
    const settings = resolveSettings(
      ["--workspace", dir.workspace, "--state-dir", dir.outside],
      { ...io, cwd: dir.workspace },
      { runId, start: { ...contents.start, chapter: 3, model: modelInUse(contents) } },
    );
    const resumed = await composeRun(
      composedRunSettings(settings.options, io, dir.workspace, dir.workspace, {
        runId,
        path,
        lock,
        replayed: contents.replayed,
      }),
      ports,
    );
    try {
      expect(resumed.switchableModel?.current).toBe("gpt-4o");
      const replayed = contents.replayed;
      const result = await resumed.agent.resume(replayed.history, replayed.openCalls);
      expect(result.finalText).toBe("second answer");
    } finally {
      resumed.close();
    }

    expect(announced).toEqual([
      `model gpt-4.1-mini · endpoint ${server.baseURL}`,
      `model gpt-4o · endpoint ${server.baseURL}`,
    ]);
    expect(server.requests.map((request) => (request.body as { model: string }).model)).toEqual([
      "gpt-4.1-mini",
      "gpt-4o",
    ]);
    // The default window is the model's: the resumed run measures by gpt-4o's.
    expect(new Set(windows)).toEqual(new Set([1_047_576, 128_000]));
    expect(windows.at(-1)).toBe(128_000);
  }, 30_000);

  it.each([
    ["the model's default window follows a switch", undefined, [1_047_576, 128_000]],
    ["a window given with --context-window stays", 50_000, [50_000, 50_000]],
  ] as const)(
    "%s, as it does for a resumed run",
    async (_name, contextWindow, expected) => {
      const server = await ChatCompletionsServer.start([
        chatTextReply("first answer"),
        chatTextReply("second answer"),
      ]);
      onTestFinished(() => server.close());
      const env = {
        PATH: process.env.PATH,
        HOME: dir.root,
        OPENAI_API_KEY: "sk-test-resumed-model",
        OPENAI_BASE_URL: server.baseURL,
      };
      const windows: number[] = [];
      const run = await composeRun(newRun(env, contextWindow), portsFor([], windows));
      try {
        const first = await run.agent.run("hello");
        const before = windows.at(-1);
        run.switchableModel?.switchTo("gpt-4o");
        await run.agent.run("again", undefined, first.history);
        expect([before, windows.at(-1)]).toEqual(expected);
      } finally {
        run.close();
      }
    },
    30_000,
  );
});
