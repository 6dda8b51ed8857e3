/**
 * `npm run bench`: the harness's own cost (issue 6, and issue 7's sandbox figure). A script, never a
 * test: it writes bench/results.json and prints the markdown table docs/performance.md quotes. Pass section
 * keys (e.g. `npm run bench -- glob startup`) to run only those; a partial run does not overwrite
 * results.json.
 */
import { writeFile } from "node:fs/promises";
import { arch, cpus, loadavg, release, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import { measureAgainstPi } from "./against-pi.js";
import { measureDecisionOverhead } from "./decision-overhead.js";
import { measureFirstReply } from "./first-reply.js";
import { measureGlobScale } from "./glob-scale.js";
import { measureGrepScale } from "./grep-scale.js";
import { measureLargeFiles } from "./large-files.js";
import { measureMcpStartup } from "./mcp-startup.js";
import type { SectionResult } from "./measurement.js";
import { measurePathBoundary } from "./path-boundary.js";
import { measureRunListing } from "./run-listing.js";
import { measureSandbox } from "./sandbox.js";
import { measureShellCapture } from "./shell-capture.js";
import { measureStartup } from "./startup.js";
import { markdownTable } from "./table.js";
import { measureTerminalRender } from "./terminal-render.js";
import { measureTurnCost } from "./turn-cost.js";

interface Section {
  readonly key: string;
  readonly measure: () => Promise<SectionResult>;
}

const SECTIONS: readonly Section[] = [
  { key: "decision", measure: measureDecisionOverhead },
  { key: "paths", measure: measurePathBoundary },
  { key: "glob", measure: measureGlobScale },
  { key: "grep", measure: measureGrepScale },
  { key: "shell", measure: measureShellCapture },
  { key: "startup", measure: measureStartup },
  { key: "mcp", measure: measureMcpStartup },
  { key: "large", measure: measureLargeFiles },
  { key: "sandbox", measure: measureSandbox },
  { key: "render", measure: measureTerminalRender },
  { key: "runs", measure: measureRunListing },
  { key: "turns", measure: measureTurnCost },
  { key: "reply", measure: measureFirstReply },
  { key: "pi", measure: measureAgainstPi },
];

const RESULTS_PATH = new URL("./results.json", import.meta.url);

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((key) => !SECTIONS.some((section) => section.key === key));
  if (unknown.length > 0) {
    throw new Error(
      `unknown section ${unknown.join(", ")}; use ${SECTIONS.map((s) => s.key).join(", ")}`,
    );
  }
  const chosen = wanted.length === 0 ? SECTIONS : SECTIONS.filter((s) => wanted.includes(s.key));
  const started = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  const results: SectionResult[] = [];
  for (const section of chosen) {
    const sectionStart = performance.now();
    process.stderr.write(`bench: ${section.key}…\n`);
    results.push(await section.measure());
    process.stderr.write(
      `bench: ${section.key} done in ${((performance.now() - sectionStart) / 1000).toFixed(1)} s\n`,
    );
  }
  const totalSeconds = (performance.now() - started) / 1000;
  const loadAtEnd = loadavg()[0] ?? 0;
  // Other work on a shared machine inflates absolute figures; say how busy it was.
  const context =
    `Node ${process.version}, ${process.platform} ${arch()}, ${cpus().length} CPUs; whole run ` +
    `${totalSeconds.toFixed(0)} s; 1-minute load average ${loadAtStart.toFixed(1)} at start, ` +
    `${loadAtEnd.toFixed(1)} at end.`;
  const table = `${markdownTable(results)}\n\n${context}`;
  if (wanted.length === 0) {
    const document = {
      date: new Date().toISOString(),
      machine: machineDescription(),
      totalSeconds: Number(totalSeconds.toFixed(1)),
      loadAverage: { start: loadAtStart, end: loadAtEnd },
      sections: results,
      table,
    };
    await writeFile(RESULTS_PATH, `${JSON.stringify(document, null, 2)}\n`);
  }
  process.stdout.write(`${table}\n`);
  process.stderr.write(`bench: finished in ${totalSeconds.toFixed(1)} s\n`);
}

function machineDescription(): Record<string, string | number> {
  return {
    node: process.version,
    platform: `${process.platform} ${release()} ${arch()}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
  };
}

try {
  await main();
} catch (error) {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
}
