/**
 * One run of pi (Mario Zechner's coding agent, npm `@mariozechner/pi-coding-agent`) doing the work
 * turn-cost.ts gives our agent: `calls` reads of the same notes.txt, one per reply, then a text
 * answer, against a local server that answers at once. pi only speaks the streamed Chat Completions
 * dialect and its read tool is `read`, so this server answers each request with one
 * `text/event-stream` chunk carrying the whole message; the timeline is stamped the same way
 * (headers arrived; reply written). pi is never a dependency of this repository: the bench runs it
 * only when AGENT_BENCH_PI names its cli.js (see docs/performance.md for how it was installed).
 */
import { mkdir, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { timedRun, type Timeline } from "./timeline-run.js";
import { FILE_TEXT, PROMPT } from "./turn-cost.js";

/** The model pi is told to use; the window is gpt-4.1's, as our agent assumes, so neither compacts. */
const MODEL = "gpt-4.1-mini";
const CONTEXT_WINDOW = 1_047_576;

export async function runPiOfCalls(
  piCli: string,
  directory: string,
  calls: number,
): Promise<Timeline> {
  const workspace = join(directory, "workspace");
  const agentDir = join(directory, "pi-agent");
  await mkdir(workspace, { recursive: true });
  await mkdir(agentDir, { recursive: true });
  await writeFile(join(workspace, "notes.txt"), FILE_TEXT);
  return timedRun({
    who: `pi's ${String(calls)}-call run`,
    requests: calls + 1,
    answer: (turn) => {
      const delta =
        turn < calls
          ? {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  index: 0,
                  id: `call_${String(turn)}`,
                  type: "function",
                  function: { name: "read", arguments: '{"path":"notes.txt"}' },
                },
              ],
            }
          : { role: "assistant", content: "bench: done" };
      return {
        contentType: "text/event-stream",
        body:
          chunk(delta, null) + chunk({}, turn < calls ? "tool_calls" : "stop") + "data: [DONE]\n\n",
      };
    },
    launch: async (baseURL) => {
      await writeFile(
        join(agentDir, "models.json"),
        JSON.stringify({
          providers: {
            bench: {
              baseUrl: baseURL,
              api: "openai-completions",
              apiKey: "dummy",
              compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
              models: [
                { id: MODEL, reasoning: false, contextWindow: CONTEXT_WINDOW, maxTokens: 32_000 },
              ],
            },
          },
        }),
      );
      return {
        executable: process.execPath,
        args: [
          await realpath(piCli),
          ...["--provider", "bench", "--model", MODEL, "--offline", "--print", PROMPT],
        ],
        cwd: workspace,
        env: piEnvironment(agentDir),
      };
    },
  });
}

function chunk(delta: Record<string, unknown>, finishReason: string | null): string {
  const body = {
    id: "bench",
    object: "chat.completion.chunk",
    created: 0,
    model: "bench",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** pi's settings, sessions and models come from `agentDir` alone; no key or base URL leaks in. */
function piEnvironment(agentDir: string): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.startsWith("OPENAI_") || name.startsWith("PI_")) continue;
    environment[name] = value;
  }
  return {
    ...environment,
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
    PI_TELEMETRY: "0",
    NO_COLOR: "1",
  };
}
