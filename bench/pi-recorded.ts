/** Placeholder until measured. */
import type { Summary } from "./stats.js";

export interface RecordedRun {
  readonly startMs: Summary;
  readonly afterMs: Summary;
}

const NONE: Summary = { runs: 0, median: Number.NaN, min: Number.NaN, max: Number.NaN };

export const RECORDED_PI = {
  version: "0.73.1",
  date: "TBD",
  machine: "TBD",
  how: "TBD",
  turns20: { startMs: NONE, afterMs: NONE } as RecordedRun,
  calls400: { startMs: NONE, afterMs: NONE } as RecordedRun,
};
