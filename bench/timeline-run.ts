/**
 * One agent process run to its exit against a local server that answers each request from a
 * script, stamping a Timeline as it goes: the same measure for our agent (turn-cost.ts) and for
 * pi (pi-run.ts), so the two differ only in what they launch and in the dialect of the replies.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { BenchFailure, peakRssMiB, runToExit } from "./measurement.js";

export interface Timeline {
  /** When the agent's process was spawned. */
  spawned: number;
  /** When each request's headers arrived. */
  readonly arrived: number[];
  /** When each reply was written. */
  readonly replied: number[];
  /** When the agent's process had exited (its streams closed). */
  exited: number;
  /** The agent's peak RSS (MiB) when each request arrived (Linux; NaN elsewhere). */
  readonly peakRss: number[];
}

export interface ScriptedReply {
  readonly contentType: string;
  readonly body: string;
}

export interface Launch {
  readonly executable: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
}

export interface TimedRunOptions {
  /** Who runs, for failures: "the agent", "pi". */
  readonly who: string;
  /** Requests expected: one per call and the final answer's. */
  readonly requests: number;
  /** The reply to request number `turn` (from 0). */
  readonly answer: (turn: number) => ScriptedReply;
  /** Held before each reply (a model that thinks); none by default. */
  readonly replyDelayMs?: number;
  /** What to start, once the server's base URL (`http://127.0.0.1:PORT/v1`) is known. */
  readonly launch: (baseURL: string) => Promise<Launch>;
}

export async function timedRun(options: TimedRunOptions): Promise<Timeline> {
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
      setTimeout(() => {
        const { contentType, body } = options.answer(turn);
        response.writeHead(200, { "content-type": contentType });
        response.end(body);
        timeline.replied.push(performance.now());
      }, options.replyDelayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new BenchFailure("no port");
  try {
    const launch = await options.launch(`http://127.0.0.1:${String(address.port)}/v1`);
    const { code, stderr } = await runToExit(launch.executable, [...launch.args], {
      cwd: launch.cwd,
      env: launch.env,
      onSpawn: (spawned) => {
        timeline.spawned = performance.now();
        pid = spawned;
      },
    });
    timeline.exited = performance.now();
    if (code !== 0) throw new BenchFailure(`${options.who} exited ${String(code)}: ${stderr}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  }
  if (timeline.arrived.length !== options.requests) {
    throw new BenchFailure(
      `${options.who}: expected ${String(options.requests)} requests, got ${String(timeline.arrived.length)}`,
    );
  }
  return timeline;
}
