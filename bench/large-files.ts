/**
 * Issue 6 §6: `read_file` on large files, through the real tool and registry in fresh processes so
 * each peak-memory figure is that file's alone. A naive read-everything-then-split of the same
 * window runs beside it, to show what the bounded reader saves.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import {
  BenchFailure,
  roundRobin,
  samplesOf,
  withTempDir,
  type SectionResult,
  type Variant,
} from "./measurement.js";
import { runProbe, type ProbeJob } from "./probe-jobs.js";
import { summarize } from "./stats.js";
import { formatNumber } from "./table.js";

const ROUNDS = 3;
const FAST_REPEATS = 20;
const LINE = `${"x".repeat(59)}\n`; // 64-byte lines with the "l" + 4-digit prefix below
const LINE_BYTES = 64;
const BIG_BYTES = 200 * 2 ** 20;
const SMALL_BYTES = 200 * 2 ** 10;

interface Case {
  readonly name: string;
  readonly job: Omit<Extract<ProbeJob, { kind: "read-file" }>, "workspace">;
  readonly expected: string;
  readonly note: string;
}

const BIG_LINES = BIG_BYTES / LINE_BYTES;
const DEEP_OFFSET = 3_000_000;

const CASES: readonly Case[] = [
  {
    name: "`read_file` 200 MiB, whole file: refused",
    job: { kind: "read-file", mode: "tool", path: "big.txt", repeat: FAST_REPEATS },
    expected: "error file_too_large",
    note: "`file_too_large` from one fstat, nothing read",
  },
  {
    name: "`read_file` 200 KiB, lines 1500-1599",
    job: {
      kind: "read-file",
      mode: "tool",
      path: "small.txt",
      offset: 1500,
      limit: 100,
      repeat: FAST_REPEATS,
    },
    expected: `[lines 1500-1599 of ${SMALL_BYTES / LINE_BYTES}]`,
    note: "offset window",
  },
  {
    name: `\`read_file\` 200 MiB, lines ${DEEP_OFFSET.toLocaleString("en-US")}+100`,
    job: {
      kind: "read-file",
      mode: "tool",
      path: "big.txt",
      offset: DEEP_OFFSET,
      limit: 100,
      repeat: 1,
    },
    expected: `[lines ${DEEP_OFFSET}-${DEEP_OFFSET + 99} of ${BIG_LINES}]`,
    note: `scans ${Math.round((DEEP_OFFSET * LINE_BYTES) / 2 ** 20)} MiB to reach the window`,
  },
  {
    name: `naive \`fs.readFile\` + split, same window (contrast)`,
    job: {
      kind: "read-file",
      mode: "naive",
      path: "big.txt",
      offset: DEEP_OFFSET,
      limit: 100,
      repeat: 1,
    },
    expected: "100 lines",
    note: "what the bounded reader avoids",
  },
];

export async function measureLargeFiles(): Promise<SectionResult> {
  return withTempDir("large", async (workspace) => {
    await writeLines(join(workspace, "big.txt"), BIG_BYTES);
    await writeLines(join(workspace, "small.txt"), SMALL_BYTES);
    const memory = new Map<string, number[]>(CASES.map((entry) => [entry.name, []]));
    const times = new Map<string, number[]>(CASES.map((entry) => [entry.name, []]));
    const variants: Variant[] = CASES.map((entry) => ({
      name: entry.name,
      run: async () => {
        const result = await runProbe({ ...entry.job, workspace });
        if (result.detail !== entry.expected) {
          throw new BenchFailure(
            `${entry.name}: expected "${entry.expected}", got "${result.detail}"`,
          );
        }
        memory.get(entry.name)?.push(result.rssGrowthMiB);
        times.get(entry.name)?.push(...result.ms);
        return result.rssGrowthMiB;
      },
    }));
    await roundRobin(ROUNDS, variants);
    return {
      title: "Large files",
      rows: CASES.map((entry) => {
        const rss = samplesOf(memory, entry.name);
        return {
          name: entry.name,
          unit: "ms" as const,
          summary: summarize(samplesOf(times, entry.name)),
          note: `${entry.note}; peak RSS growth ${formatNumber(Math.max(...rss))} MiB (max of ${rss.length} processes)`,
        };
      }),
      notes: [
        `each case runs in ${ROUNDS} fresh Node processes (the fast ones ${FAST_REPEATS} calls each, ` +
          "the first of which is JIT-cold); files of 64-byte lines.",
      ],
    };
  });
}

async function writeLines(path: string, bytes: number): Promise<void> {
  const chunkLines = Math.min(bytes, 2 ** 20) / LINE_BYTES;
  let number = 0;
  const handle = await open(path, "wx");
  try {
    for (let written = 0; written < bytes; written += chunkLines * LINE_BYTES) {
      const lines: string[] = [];
      for (let index = 0; index < chunkLines; index += 1) {
        lines.push(`l${String(number % 10_000).padStart(4, "0")}${LINE}`);
        number += 1;
      }
      await handle.write(lines.join(""));
    }
  } finally {
    await handle.close();
  }
}
