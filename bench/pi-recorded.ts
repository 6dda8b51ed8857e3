/**
 * pi's figures as last measured by `AGENT_BENCH_PI=… npm run bench -- pi` (bench/against-pi.ts),
 * kept so that the bench can still state issue 44's "≤ 0.6× pi's time after the first request"
 * on a machine without pi. A recorded figure is only comparable with runs on a machine like this
 * one at a load like this one: the bench says so whenever it uses it. Re-measure (docs/performance.md,
 * "pi measured") rather than edit these by hand.
 */
import type { Summary } from "./stats.js";

export interface RecordedRun {
  /** Spawn → first request's headers. */
  readonly startMs: Summary;
  /** First request's headers → the process has exited. */
  readonly afterMs: Summary;
}

export const RECORDED_PI = {
  version: "0.73.1",
  date: "2026-12-06",
  machine:
    "the shared 2-core machine (/proc/cpuinfo: AMD EPYC, 2 cores, 2.1 GHz; Linux x64, Node " +
    "20.20.2), 1-minute load average 11.4 at the run's start and 13.2 at its end",
  how:
    "`npm install --prefix /tmp/pi-install @mariozechner/pi-coding-agent@0.73.1`, then " +
    "`AGENT_BENCH_PI=/tmp/pi-install/node_modules/.bin/pi npm run bench -- pi` (20:08–20:11 " +
    "UTC; 5 rounds of 20 turns, 3 of 400 calls, interleaved with ours; ours then: 885 ms and " +
    "15,615 ms after the first request, 0.65× and 0.97× pi's).",
  turns20: {
    startMs: { runs: 5, median: 6226, min: 5043, max: 6838 },
    afterMs: { runs: 5, median: 1410, min: 983, max: 1754 },
  } satisfies RecordedRun,
  calls400: {
    startMs: { runs: 3, median: 5871, min: 3385, max: 6214 },
    afterMs: { runs: 3, median: 17_601, min: 11_304, max: 17_924 },
  } satisfies RecordedRun,
} as const;
