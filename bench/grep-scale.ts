/**
 * The `grep` tool's walk against `grep -rn` on one generated tree of 20,000 text files in 2,000
 * directories (no .gitignore, no binary files, so both search the same files). Both must report
 * the same matching lines: a faster wrong answer is no answer, so a difference stops the bench.
 * The figure is ours over grep's, per round (grep is a native program started once per round,
 * and its start-up counted with it, as a shell call would pay it).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { grepInWorker } from "../src/adapters/filesystem/grep-in-worker.js";
import {
  BenchFailure,
  ratio,
  roundRobin,
  runToExit,
  samplesOf,
  timeMs,
  withTempDir,
  type Row,
  type SectionResult,
} from "./measurement.js";
import { summarize } from "./stats.js";

const ROUNDS = 7;
const TOP = 20;
const BELOW = 100;
const FILES = 10;
/** Every 7th file holds the needle on one line: 2,858 of 20,000. */
const EVERY = 7;

export async function measureGrepScale(): Promise<SectionResult> {
  return withTempDir("grep", async (root) => {
    const generationStart = performance.now();
    const expected = generateTree(root);
    const generationMs = performance.now() - generationStart;
    const ours = async (): Promise<number> => {
      const result = await grepInWorker(
        root,
        {
          pattern: "needle_[0-9]+",
          fixedStrings: false,
          ignoreCase: false,
          context: 0,
          maxResults: Number.MAX_SAFE_INTEGER,
        },
        { deadlineMs: 600_000 },
      );
      return result.lines.length;
    };
    const theirs = async (): Promise<number> => {
      const { code, stdout, stderr } = await runToExit("grep", ["-rnE", "needle_[0-9]+", "."], {
        cwd: root,
      });
      if (code !== 0) throw new BenchFailure(`grep -rn failed: ${stderr}`);
      return stdout.split("\n").filter((line) => line !== "").length;
    };
    const counts = [await ours(), await theirs()];
    if (counts.some((count) => count !== expected)) {
      throw new BenchFailure(
        `grep: expected ${expected} lines, ours ${counts[0]}, grep ${counts[1]}`,
      );
    }
    const samples = await roundRobin(ROUNDS, [
      { name: "ours", run: () => timeMs(ours) },
      { name: "grep -rn", run: () => timeMs(theirs) },
    ]);
    const oursMs = samplesOf(samples, "ours");
    const theirsMs = samplesOf(samples, "grep -rn");
    const perRound = summarize(oursMs.map((value, index) => value / (theirsMs[index] ?? NaN)));
    const rows: Row[] = [
      {
        name: "`grep` tool: ours",
        unit: "ms",
        summary: summarize(oursMs),
        note:
          `${ratio(perRound.median, 1)} grep -rn (median of per-round ratios, ` +
          `rounds ${ratio(perRound.min, 1)}–${ratio(perRound.max, 1)}); same ${expected} lines`,
        ratio: perRound,
      },
      {
        name: "`grep -rnE` (GNU grep, one process)",
        unit: "ms",
        summary: summarize(theirsMs),
        note: "started once per round, as a shell call would",
      },
    ];
    return {
      title: "grep at scale",
      rows,
      notes: [
        `${(TOP * BELOW * FILES).toLocaleString("en-US")} files in ${(TOP * BELOW).toLocaleString("en-US")} ` +
          `directories, about 2 KB each, generated in ${(generationMs / 1000).toFixed(1)} s and ` +
          "removed after; ours is the `grep` tool's search as it runs, in a worker thread " +
          "started for the call (its start counted), asked for every match.",
      ],
    };
  });
}

/** Returns how many lines hold the needle. */
function generateTree(root: string): number {
  const filler = Array.from({ length: 40 }, (_, line) => `const value${line} = compute(${line});`);
  let index = 0;
  let needles = 0;
  for (let top = 0; top < TOP; top += 1) {
    for (let below = 0; below < BELOW; below += 1) {
      const directory = join(root, `t${top}`, `b${below}`);
      mkdirSync(directory, { recursive: true });
      for (let file = 0; file < FILES; file += 1) {
        const lines = [...filler];
        if (index % EVERY === 0) {
          lines[20] = `const needle_${index} = true;`;
          needles += 1;
        }
        writeFileSync(join(directory, `f${file}.ts`), `${lines.join("\n")}\n`);
        index += 1;
      }
    }
  }
  return needles;
}
