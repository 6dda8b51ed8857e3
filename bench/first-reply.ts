/**
 * Issue 44 §1: a reply with no command in it is never held by the sandbox probe. The built agent
 * runs with `--sandbox auto` (the default; the probe's verdict remembered from the warm-up round,
 * as on any machine after its first run) and with `--sandbox off`:
 * - a one-reply run (a text answer, no tool call) against a server that answers at once, timed
 *   from its first request reaching the server to the process's exit. Target: auto ≤ 1.2× off.
 * - a run of READS `read_file` calls, one per reply, from a server that answers each request after
 *   MODEL_MS, as a hosted model would (the agent uses that wait for the probe and the tools'
 *   schemas, and rehearses the client's reply path): the first read's turn gap (its reply's end
 *   to the next request) against a later read's (the median of the last READS − 2 gaps).
 *   Target: ≤ 1.2×. The same figure with
 *   `--sandbox off` shows what the first read costs without any probe, and with a server that
 *   answers at once what it costs when the model leaves no wait to use (informative).
 * Each figure is the median of per-round ratios; the variants run round-robin.
 */
import { join } from "node:path";
import {
  buildAgentBundle,
  collectOwnGarbage,
  roundRobin,
  samplesOf,
  withTempDir,
  type Row,
  type SectionResult,
  type Variant,
} from "./measurement.js";
import { summarize, type Summary } from "./stats.js";
import { runOfCalls, type Timeline } from "./turn-cost.js";

const ROUNDS = 11;
const READS = 8;
const TARGET = 1.2;
/** A hosted model's time to answer, which the reads' server takes: a quick one. */
const MODEL_MS = 200;

type Sandbox = "auto" | "off";
/** The reads' runs: auto and off with a server that takes MODEL_MS, auto with one at once. */
type Reads = Sandbox | "instant";

export async function measureFirstReply(): Promise<SectionResult> {
  await buildAgentBundle();
  return withTempDir("first-reply", async (directory) => {
    const firstRead: Record<Reads, number[]> = { auto: [], off: [], instant: [] };
    const laterRead: Record<Reads, number[]> = { auto: [], off: [], instant: [] };
    const run = async (
      name: string,
      calls: number,
      sandbox: Sandbox,
      replyDelayMs = 0,
    ): Promise<Timeline> => {
      collectOwnGarbage();
      const where = join(directory, name);
      return runOfCalls(join(where, "workspace"), join(where, "state"), calls, {
        sandbox,
        replyDelayMs,
      });
    };
    const oneReply = (sandbox: Sandbox): Variant => ({
      name: `one reply, ${sandbox}`,
      run: async () => {
        const timeline = await run(`one-${sandbox}`, 0, sandbox);
        return timeline.exited - (timeline.arrived[0] ?? Number.NaN);
      },
    });
    const reads = (kind: Reads): Variant => ({
      name: `reads, ${kind}`,
      run: async () => {
        const sandbox = kind === "off" ? "off" : "auto";
        const delay = kind === "instant" ? 0 : MODEL_MS;
        const timeline = await run(`reads-${kind}`, READS, sandbox, delay);
        const gaps = gapsOf(timeline);
        firstRead[kind].push(gaps[0] ?? Number.NaN);
        laterRead[kind].push(summarize(gaps.slice(2)).median);
        return gaps[0] ?? Number.NaN;
      },
    });
    const variants = [
      oneReply("auto"),
      oneReply("off"),
      reads("auto"),
      reads("off"),
      reads("instant"),
    ];
    // Warm-up: the probe's verdict remembered (the code caches come seeded by the build).
    await roundRobin(1, variants);
    for (const kind of ["auto", "off", "instant"] as const) {
      firstRead[kind].length = 0;
      laterRead[kind].length = 0;
    }
    const samples = await roundRobin(ROUNDS, variants);
    const auto = samplesOf(samples, "one reply, auto");
    const off = samplesOf(samples, "one reply, off");
    const replyRatio = summarize(auto.map((ms, round) => ms / (off[round] ?? Number.NaN)));
    const readRatio = (kind: Reads): Summary =>
      summarize(firstRead[kind].map((ms, round) => ms / (laterRead[kind][round] ?? Number.NaN)));
    const later = (kind: Reads): string => `${summarize(laterRead[kind]).median.toFixed(2)} ms`;
    const autoReads = readRatio("auto");
    const rows: Row[] = [
      {
        name: "one-reply run, `--sandbox off`: first request → exit",
        unit: "ms",
        summary: summarize(off),
        note: "floor: no probe",
      },
      {
        name: "one-reply run, `--sandbox auto`: first request → exit",
        unit: "ms",
        summary: summarize(auto),
        note: `${replyRatio.median.toFixed(2)}× \`--sandbox off\` (median of per-round ratios, ${range(replyRatio)})`,
        ratio: replyRatio,
        targets: [
          {
            goal: `≤ ${TARGET}× \`--sandbox off\``,
            figure: `${replyRatio.median.toFixed(2)}×`,
            met: replyRatio.median <= TARGET,
          },
        ],
      },
      {
        name: `first \`read_file\`, \`--sandbox auto\`, model ${MODEL_MS} ms: reply → next request`,
        unit: "ms",
        summary: summarize(firstRead.auto),
        note: `${autoReads.median.toFixed(2)}× a later read (${later("auto")}; median of per-round ratios, ${range(autoReads)})`,
        ratio: autoReads,
        targets: [
          {
            goal: `≤ ${TARGET}× a later read`,
            figure: `${autoReads.median.toFixed(2)}×`,
            met: autoReads.median <= TARGET,
          },
        ],
      },
      {
        name: `first \`read_file\`, \`--sandbox off\`, model ${MODEL_MS} ms: reply → next request`,
        unit: "ms",
        summary: summarize(firstRead.off),
        note: `${readRatio("off").median.toFixed(2)}× a later read (${later("off")}): no probe at all`,
      },
      {
        name: "first `read_file`, `--sandbox auto`, model at once: reply → next request",
        unit: "ms",
        summary: summarize(firstRead.instant),
        note: `${readRatio("instant").median.toFixed(2)}× a later read (${later("instant")}): no wait to use, so the first read pays for what the idle step readies (informative)`,
      },
    ];
    return {
      title: "First reply",
      rows,
      notes: [
        `the built agent against a local server; ${ROUNDS} rounds after one warm-up round (which ` +
          "leaves the probe's verdict remembered in each state directory); the one-reply runs' " +
          `server answers at once, the reads' after ${MODEL_MS} ms unless said; a later read is ` +
          `the median gap of reads 3–${READS}.`,
      ],
    };
  });
}

/** Each turn's gap: a reply's end to the next request. */
function gapsOf(timeline: Timeline): number[] {
  return timeline.arrived.slice(1).map((at, turn) => at - (timeline.replied[turn] ?? 0));
}

function range(summary: Summary): string {
  return `${summary.min.toFixed(2)}×–${summary.max.toFixed(2)}×`;
}
