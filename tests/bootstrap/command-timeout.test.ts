/**
 * `--command-timeout` from the command line to the command: the run's settings decide it once, and
 * the composition root hands that one value to the tool the model reads, to the approval (the
 * call's final arguments) and to the runner that kills the command. The runner here is a fake
 * that records what it was asked and reports a timeout, so nothing waits.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { composeRun } from "../../src/bootstrap/compose-run.js";
import { resolveSettings } from "../../src/cli/settings/resolve-settings.js";
import { composedRunSettings } from "../../src/cli/settings/run-settings.js";
import type { CommandOptions, CommandRunner } from "../../src/core/ports/command-runner.js";
import { PermissionDecision } from "../../src/core/policy/permission-decision.js";
import type { PermissionRequest } from "../../src/core/policy/permission-request.js";
import {
  ChatCompletionsServer,
  chatTextReply,
  chatToolCallsReply,
} from "../support/chat-completions-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";

let dir: TempWorkspace;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-command-timeout-");
});
afterEach(() => dir.cleanup());

/** Records each command's options and reports that it ran out of time. */
class TimingOutRunner implements CommandRunner {
  readonly shellName = "bash";
  readonly options: CommandOptions[] = [];

  run(_command: string, _cwd: string, options: CommandOptions) {
    this.options.push(options);
    return Promise.resolve({ exitCode: null, output: "", truncated: false, timedOut: true });
  }
}

interface RequestBody {
  readonly tools: readonly { readonly function: { name: string; description: string } }[];
  readonly messages: readonly { readonly role: string; readonly content: string | null }[];
}

describe("the command timeout a run is given", () => {
  it.each([
    ["the flag", ["--command-timeout", "5"], {}, 5_000],
    ["the settings file", [], { commandTimeout: 45 }, 45_000],
    ["neither: the default", [], undefined, 120_000],
  ] as const)(
    "from %s: the tool says it, the approval binds it, the runner is given it, the journal keeps it",
    async (_, flags, file, timeoutMs) => {
      const server = await ChatCompletionsServer.start([
        chatToolCallsReply([{ id: "call_1", name: "shell", arguments: { command: "sleep 600" } }]),
        chatTextReply("done"),
      ]);
      onTestFinished(() => server.close());
      const config = join(dir.root, "config");
      if (file !== undefined) {
        await mkdir(join(config, "agent-harness"), { recursive: true });
        await writeFile(join(config, "agent-harness", "settings.json"), JSON.stringify(file));
      }
      const env = {
        PATH: process.env.PATH,
        HOME: dir.root,
        XDG_CONFIG_HOME: config,
        OPENAI_API_KEY: "sk-test-command-timeout",
        OPENAI_BASE_URL: server.baseURL,
      };
      const io = { env, platform: process.platform };
      const settings = resolveSettings(
        [...flags, "--chapter", "3", "--sandbox", "off", "--state-dir", dir.outside],
        { ...io, cwd: dir.workspace },
      );
      const runner = new TimingOutRunner();
      const asked: PermissionRequest[] = [];
      const run = await composeRun(
        composedRunSettings(settings.options, io, dir.workspace, dir.workspace, undefined),
        {
          approver: () => ({
            decide: (request) => {
              asked.push(request);
              return Promise.resolve(PermissionDecision.allow("yes", "terminal-approval"));
            },
          }),
          terminalAudit: { record: () => undefined },
          aroundRunner: () => runner,
        },
      );
      try {
        await run.agent.run("run the slow suite");
      } finally {
        run.close();
      }
      const seconds = `${String(timeoutMs / 1000)} s`;
      const [first, second] = server.requests.map((request) => request.body as RequestBody);
      const shell = first?.tools.find((tool) => tool.function.name === "shell");
      expect(shell?.function.description).toContain(
        `the command and everything it started are killed after ${seconds}.`,
      );
      expect(asked.map((request) => request.call.finalArguments?.timeoutMs)).toEqual([timeoutMs]);
      expect(runner.options.map((options) => options.timeoutMs)).toEqual([timeoutMs]);
      expect(second?.messages.at(-1)?.content).toMatch(
        new RegExp(`^Error \\[shell_timeout\\]: Command timed out after ${seconds} and was killed`),
      );
      const journal = await readFile(run.session.journal.path, "utf8");
      const started = JSON.parse(journal.split("\n")[0] ?? "") as { commandTimeoutMs?: number };
      expect(started.commandTimeoutMs).toBe(timeoutMs);
    },
  );
});
