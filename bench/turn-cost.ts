/**
 * Issue 44 §2: the harness's own work per turn must not grow with the history. One run of the built
 * agent makes CALLS `read_file` calls, one per reply, against a local server that answers at once
 * (it stamps a request when its headers arrive and answers when its body has been read). A turn's
 * gap is the time from a reply's end to the next request: the agent's own cost for that turn (the
 * call, its journal records, the next request's body). Target: the last 20 gaps ≤ 1.2× the first
 * 20 (their sums), in each round; the ratio is the median over the rounds.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildAgentBundle,
  collectOwnGarbage,
  withTempDir,
  type Row,
  type SectionResult,
} from "./measurement.js";
import { summarize } from "./stats.js";
import { timedRun, type Timeline } from "./timeline-run.js";

const AGENT = fileURLToPath(new URL("../dist/agent.cjs", import.meta.url));
const CALLS = 400;
const EDGE = 20;
const ROUNDS = 3;
const TARGET = 1.2;
/** Issue 44: memory at 20 turns, and its growth no more than linear. */
const MEMORY_TARGET_MIB = 64;
const GROWTH_TARGET = 1.2;
/** The task each run is given (pi's runs get the same words: bench/pi-run.ts). */
export const PROMPT = "Read notes.txt again and again.";
/** What each read returns: a history of about CALLS × 1 KiB by the end. */
export const FILE_TEXT = "a line of a source file, read by the bench\n".repeat(24);

export type { Timeline } from "./timeline-run.js";

export interface RunOptions {
  /** `--sandbox`: off by default, so only the harness's own work is timed. */
  readonly sandbox?: "off" | "auto";
  /** How long the server takes to answer each request (a hosted model's time); 0: at once. */
  readonly replyDelayMs?: number;
}

export async function measureTurnCost(): Promise<SectionResult> {
  await buildAgentBundle();
  return withTempDir("turns", async (directory) => {
    const ratios: number[] = [];
    const firstGaps: number[] = [];
    const lastGaps: number[] = [];
    const warmRatios: number[] = [];
    const after20: number[] = [];
    const afterAll: number[] = [];
    const rss20: number[] = [];
    const rssHalf: number[] = [];
    const rssAll: number[] = [];
    const growthRatios: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      collectOwnGarbage();
      const timeline = await oneRun(join(directory, `round-${round}`));
      const gaps = timeline.arrived.slice(1).map((at, turn) => at - (timeline.replied[turn] ?? 0));
      const first = sum(gaps.slice(0, EDGE));
      const last = sum(gaps.slice(-EDGE));
      ratios.push(last / first);
      // The first turns also pay for the code each one loads and compiles; turns 21–40 do not.
      warmRatios.push(last / sum(gaps.slice(EDGE, 2 * EDGE)));
      firstGaps.push(first / EDGE);
      lastGaps.push(last / EDGE);
      const start = timeline.arrived[0] ?? 0;
      after20.push((timeline.replied[EDGE] ?? 0) - start);
      afterAll.push((timeline.replied.at(-1) ?? 0) - start);
      // Peak RSS when the request after EDGE turns, after half the calls and after all arrived.
      const at20 = timeline.peakRss[EDGE] ?? Number.NaN;
      const atHalf = timeline.peakRss[CALLS / 2] ?? Number.NaN;
      const atAll = timeline.peakRss[CALLS] ?? Number.NaN;
      rss20.push(at20);
      rssHalf.push(atHalf);
      rssAll.push(atAll);
      growthRatios.push(growthRatio(at20, atHalf, atAll));
    }
    const ratio = summarize(ratios);
    const rows: Row[] = [
      {
        name: `turn gap, first ${EDGE} of ${CALLS} calls`,
        unit: "ms",
        summary: summarize(firstGaps),
        note: "reply's end → next request, per turn (the agent's own work)",
      },
      {
        name: `turn gap, last ${EDGE} of ${CALLS} calls`,
        unit: "ms",
        summary: summarize(lastGaps),
        note: `${ratio.median.toFixed(2)}× the first ${EDGE} (median of per-run ratios, ${ratio.min.toFixed(2)}×–${ratio.max.toFixed(2)}×)`,
        ratio,
        targets: [
          {
            goal: `≤ ${TARGET}× the first ${EDGE}`,
            figure: `${ratio.median.toFixed(2)}×`,
            met: ratio.median <= TARGET,
          },
        ],
      },
      {
        name: `turn gap, last ${EDGE} ÷ turns ${EDGE + 1}–${2 * EDGE}`,
        unit: "ms",
        summary: summarize(lastGaps),
        note: `${summarize(warmRatios).median.toFixed(2)}× (median of per-run ratios): growth without the first turns' warm-up`,
      },
      {
        name: `after the first request, ${EDGE} turns`,
        unit: "ms",
        summary: summarize(after20),
        note: "first request → 21st reply written",
      },
      {
        name: `after the first request, ${CALLS} calls`,
        unit: "ms",
        summary: summarize(afterAll),
        note: "first request → last reply written",
      },
    ];
    const memory20 = summarize(rss20);
    const growth = summarize(growthRatios);
    rows.push(
      {
        name: `peak RSS after ${EDGE} turns`,
        unit: "MiB",
        summary: memory20,
        note: "VmHWM when the 21st request arrives",
        targets: [
          {
            goal: `≤ ${MEMORY_TARGET_MIB} MiB`,
            figure: `${memory20.median.toFixed(1)} MiB`,
            met: memory20.median <= MEMORY_TARGET_MIB,
          },
        ],
      },
      {
        name: `peak RSS after ${CALLS} calls`,
        unit: "MiB",
        summary: summarize(rssAll),
        note:
          `${summarize(rssHalf).median.toFixed(1)} MiB after ${CALLS / 2}; growth per call in ` +
          `the second half ${growth.median.toFixed(2)}× the first's (from turn ${EDGE})`,
        ratio: growth,
        targets: [
          {
            goal: "grows at most linearly (second half's growth per call ≤ 1.2× the first's)",
            figure: `${growth.median.toFixed(2)}×`,
            met: growth.median <= GROWTH_TARGET,
          },
        ],
      },
    );
    return {
      title: "Turn cost",
      rows,
      notes: [
        `one run per round of ${CALLS} \`read_file\` calls (one per reply, ~1 KiB each) and a ` +
          `final text reply, \`--sandbox off\`, against a server that answers at once. The ` +
          "goal of ≤ 0.6× pi's time after the first request (20 turns, 400 calls) is the " +
          "`pi` section's (bench/against-pi.ts).",
      ],
    };
  });
}

async function oneRun(directory: string): Promise<Timeline> {
  const workspace = join(directory, "workspace");
  const stateDir = join(directory, "state");
  return runOfCalls(workspace, stateDir, CALLS);
}

/**
 * One run of the built agent in `workspace` that makes `calls` \`read_file\` calls, one per reply,
 * then answers; the server answers at once. Its journal is left in `stateDir`.
 */
export async function runOfCalls(
  workspace: string,
  stateDir: string,
  calls: number,
  options: RunOptions = {},
): Promise<Timeline> {
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, "notes.txt"), FILE_TEXT);
  return timedRun({
    who: `the agent's ${String(calls)}-call run`,
    requests: calls + 1,
    ...(options.replyDelayMs === undefined ? {} : { replyDelayMs: options.replyDelayMs }),
    answer: (turn) => ({
      contentType: "application/json",
      body:
        turn < calls
          ? reply({
              content: null,
              tool_calls: [
                {
                  id: `call_${String(turn)}`,
                  type: "function",
                  function: { name: "read_file", arguments: '{"path":"notes.txt"}' },
                },
              ],
            })
          : reply({ content: "bench: done" }),
    }),
    launch: (baseURL) =>
      Promise.resolve({
        executable: process.execPath,
        args: [
          AGENT,
          ...["--workspace", workspace, "--state-dir", stateDir],
          ...["--sandbox", options.sandbox ?? "off"],
          ...["--max-turns", String(calls + 1), PROMPT],
        ],
        cwd: workspace,
        env: agentEnvironment(baseURL),
      }),
  });
}

function reply(message: Record<string, unknown>): string {
  return JSON.stringify({
    id: "bench",
    object: "chat.completion",
    created: 0,
    model: "bench",
    choices: [
      {
        index: 0,
        message: { role: "assistant", ...message },
        finish_reason: "tool_calls" in message ? "tool_calls" : "stop",
      },
    ],
  });
}

/**
 * The second half's growth per call over the first half's (from EDGE): ≤ 1 is at most linear.
 * Peak RSS only rises, in steps, and can stay put for hundreds of calls: a second half that does
 * not rise is at most linear whatever the first did (0/0 was NaN, a failure, for a flat run).
 */
function growthRatio(at20: number, atHalf: number, atAll: number): number {
  const second = (atAll - atHalf) / (CALLS / 2);
  if (second <= 0) return 0;
  return second / ((atHalf - at20) / (CALLS / 2 - EDGE));
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** This process's environment minus anything that could change the agent's run. */
function agentEnvironment(baseURL: string): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.startsWith("OPENAI_") || name.startsWith("AGENT_")) continue;
    environment[name] = value;
  }
  return { ...environment, OPENAI_API_KEY: "dummy", OPENAI_BASE_URL: baseURL, NO_COLOR: "1" };
}
