/** Order statistics for bench samples. Medians, not means: one GC pause must not move a figure. */

export interface Summary {
  readonly runs: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error("cannot summarize zero samples");
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    runs: sorted.length,
    median: percentileOfSorted(sorted, 50),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** Nearest-rank percentile (p in 0..100): always a value that was actually observed. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error("cannot take a percentile of zero samples");
  return percentileOfSorted(
    [...samples].sort((a, b) => a - b),
    p,
  );
}

function percentileOfSorted(sorted: readonly number[], p: number): number {
  if (p === 50 && sorted.length % 2 === 0) {
    const upper = sorted.length / 2;
    return ((sorted[upper - 1] ?? Number.NaN) + (sorted[upper] ?? Number.NaN)) / 2;
  }
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? Number.NaN;
}
