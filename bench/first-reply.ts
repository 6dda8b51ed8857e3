/**
 * Issue 44 §1: a reply with no command in it is never held by the sandbox probe. The built agent
 * runs with `--sandbox auto` (the default; the probe's verdict remembered from the warm-up round,
 * as on any machine after its first run) and with `--sandbox off`, against a local server that
 * answers at once:
 * - a one-reply run (a text answer, no tool call), timed from its first request reaching the
 *   server to the process's exit. Target: auto ≤ 1.2× off.
 * - a run of READS `read_file` calls, one per reply: the first read's turn gap (its reply's end to
 *   the next request) against a later read's (the median of the last READS − 2 gaps, past the
 *   first two turns' code loading). Target: ≤ 1.2×. The same figure with `--sandbox off` shows
 *   what the first read costs without any probe (its tools' code and zod load at the first call).
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
import { summarize } from "./stats.js";
import { runOfCalls, type Timeline } from "./turn-cost.js";

const ROUNDS = 11;
const READS = 8;
const TARGET = 1.2;

type Sandbox = "auto" | "off";

export async function measureFirstReply(): Promise<SectionResult> {
  await buildAgentBundle();
  return withTempDir("first-reply", async (directory) => {
    const firstRead: Record<Sandbox, number[]> = { auto: [], off: [] };
    const laterRead: Record<Sandbox, number[]> = { auto: [], off: [] };
    const run = async (name: string, calls: number, sandbox: Sandbox): Promise<Timeline> => {
      collectOwnGarbage();
      return runOfCalls(join(directory, name, "workspace"), join(directory, name, "state"), calls, {
        sandbox,
      });
    };
    const oneReply = (sandbox: Sandbox): Variant => ({
      name: `one reply, ${sandbox}`,
      run: async () => {
        const timeline = await run(`one-${sandbox}`, 0, sandbox);
        return timeline.exited - (timeline.arrived[0] ?? Number.NaN);
      },
    });
    const reads = (sandbox: Sandbox): Variant => ({
      name: `reads, ${sandbox}`,
      run: async () => {
        const timeline = await run(`reads-${sandbox}`, READS, sandbox);
        const gaps = timeline.arrived
          .slice(1)
          .map((at, turn) => at - (timeline.replied[turn] ?? 0));
        firstRead[sandbox].push(gaps[0] ?? Number.NaN);
        laterRead[sandbox].push(summarize(gaps.slice(2)).median);
        return gaps[0] ?? Number.NaN;
      },
    });
    const variants = [oneReply("auto"), oneReply("off"), reads("auto"), reads("off")];
    await roundRobin(1, variants); // warm-up: the probe's verdict remembered, the code cache
    for (const sandbox of ["auto", "off"] as const) {
      firstRead[sandbox].length = 0;
      laterRead[sandbox].length = 0;
    }
    const samples = await roundRobin(ROUNDS, variants);
    const auto = samplesOf(samples, "one reply, auto");
    const off = samplesOf(samples, "one reply, off");
    const replyRatio = summarize(auto.map((ms, round) => ms / (off[round] ?? Number.NaN)));
    const readRatio = (sandbox: Sandbox) =>
      summarize(
        firstRead[sandbox].map((ms, round) => ms / (laterRead[sandbox][round] ?? Number.NaN)),
      );
    const autoReads = readRatio("auto");
    const offReads = readRatio("off");
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
        note: `${replyRatio.median.toFixed(2)}× \`--sandbox off\` (median of per-round ratios, ${replyRatio.min.toFixed(2)}×–${replyRatio.max.toFixed(2)}×)`,
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
        name: `first \`read_file\`, \`--sandbox auto\`: reply → next request`,
        unit: "ms",
        summary: summarize(firstRead.auto),
        note: `${autoReads.median.toFixed(2)}× a later read (${summarize(laterRead.auto).median.toFixed(2)} ms; median of per-round ratios, ${autoReads.min.toFixed(2)}×–${autoReads.max.toFixed(2)}×)`,
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
        name: `first \`read_file\`, \`--sandbox off\`: reply → next request`,
        unit: "ms",
        summary: summarize(firstRead.off),
        note: `${offReads.median.toFixed(2)}× a later read (${summarize(laterRead.off).median.toFixed(2)} ms): no probe at all`,
      },
    ];
    return {
      title: "First reply",
      rows,
      notes: [
        `the built agent against a server that answers at once; ${ROUNDS} rounds after one ` +
          "warm-up round (which leaves the probe's verdict remembered in each state directory); " +
          `a later read is the median gap of reads 3–${READS}.`,
      ],
    };
  });
}
