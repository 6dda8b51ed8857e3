/**
 * One run of pi (Mario Zechner's coding agent, npm `@mariozechner/pi-coding-agent`) doing the work
 * turn-cost.ts gives our agent: `calls` reads of the same notes.txt, one per reply, then a text
 * answer, against a local server that answers at once. pi only speaks the streamed Chat Completions
 * dialect and its read tool is `read`, so this server answers each request with one
 * `text/event-stream` chunk carrying the whole message; the timeline is stamped the same way
 * (headers arrived; reply written). pi is never a dependency of this repository: the bench runs it
 * only when AGENT_BENCH_PI names its cli.js (see docs/performance.md for how it was installed).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { mkdir, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { BenchFailure, peakRssMiB, runToExit } from "./measurement.js";
import { FILE_TEXT, PROMPT, type Timeline } from "./turn-cost.js";

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
  const timeline: Timeline = {
    spawned: Number.NaN,
    arrived: [],
    replied: [],
    exited: Number.NaN,
    peakRss: [],
  };
  let pid: number | undefined;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const turn = timeline.arrived.length;
    timeline.arrived.push(performance.now());
    timeline.peakRss.push(pid === undefined ? Number.NaN : peakRssMiB(pid));
    request.resume();
    request.once("end", () => {
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
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(
        chunk(delta, null) + chunk({}, turn < calls ? "tool_calls" : "stop") + "data: [DONE]\n\n",
      );
      timeline.replied.push(performance.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new BenchFailure("no port");
  await writeFile(
    join(agentDir, "models.json"),
    JSON.stringify({
      providers: {
        bench: {
          baseUrl: `http://127.0.0.1:${String(address.port)}/v1`,
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
  try {
    const { code, stderr } = await runToExit(
      process.execPath,
      [
        await realpath(piCli),
        ...["--provider", "bench", "--model", MODEL, "--offline", "--print", PROMPT],
      ],
      {
        cwd: workspace,
        env: piEnvironment(agentDir),
        onSpawn: (spawned) => {
          timeline.spawned = performance.now();
          pid = spawned;
        },
      },
    );
    timeline.exited = performance.now();
    if (code !== 0)
      throw new BenchFailure(`pi's ${calls}-call run exited ${String(code)}: ${stderr}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  }
  if (timeline.arrived.length !== calls + 1) {
    throw new BenchFailure(`pi: expected ${calls + 1} requests, got ${timeline.arrived.length}`);
  }
  return timeline;
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
