/**
 * Issue 6 §2: the price of the one workspace boundary. Warm: many calls in this process. Cold: the
 * first call in a fresh Node process (JIT and module state cold; the OS dentry cache stays warm,
 * since dropping it would need root and would slow every other process on the machine).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { NodeWorkspaceWriteBoundary } from "../src/adapters/filesystem/node-filesystem.js";
import { safePath } from "../src/adapters/filesystem/safe-path.js";
import {
  BenchFailure,
  ratio,
  roundRobin,
  samplesOf,
  withTempDir,
  type Row,
  type SectionResult,
  type Variant,
} from "./measurement.js";
import { runProbe } from "./probe-jobs.js";
import { percentile, summarize } from "./stats.js";

const WARM_ROUNDS = 10;
const WARM_CALLS_PER_ROUND = 500;
const COLD_PROCESSES = 5;

const SHALLOW = "README.md";
const DEEP = `${Array.from({ length: 12 }, (_, index) => `d${index + 1}`).join("/")}/leaf.ts`;

type Check = "safePath" | "isPathWithinWorkspace";
const CHECKS: readonly Check[] = ["safePath", "isPathWithinWorkspace"];
const PATHS = [
  { label: "shallow", path: SHALLOW },
  { label: "12-deep", path: DEEP },
] as const;

export async function measurePathBoundary(): Promise<SectionResult> {
  return withTempDir("paths", async (workspace) => {
    await writeFile(join(workspace, SHALLOW), "# bench\n");
    await mkdir(join(workspace, DEEP, ".."), { recursive: true });
    await writeFile(join(workspace, DEEP), "export {};\n");

    const boundary = new NodeWorkspaceWriteBoundary();
    const once = async (check: Check, path: string): Promise<void> => {
      const inside =
        check === "safePath"
          ? (await safePath(workspace, path)) === join(workspace, path)
          : await boundary.isPathWithinWorkspace(workspace, path);
      if (!inside) throw new BenchFailure(`${check}(${path}) did not resolve inside the workspace`);
    };

    const combos = CHECKS.flatMap((check) => PATHS.map((entry) => ({ check, ...entry })));
    const nameOf = (combo: (typeof combos)[number]): string =>
      `\`${combo.check}\`, ${combo.label} path`;

    const warmVariants: Variant[] = combos.map((combo) => ({
      name: nameOf(combo),
      run: async () => {
        const perCall: number[] = [];
        for (let index = 0; index < WARM_CALLS_PER_ROUND; index += 1) {
          const start = performance.now();
          await once(combo.check, combo.path);
          perCall.push((performance.now() - start) * 1000);
        }
        return percentile(perCall, 50);
      },
    }));
    await roundRobin(1, warmVariants);
    const warm = await roundRobin(WARM_ROUNDS, warmVariants);

    const coldVariants: Variant[] = combos.map((combo) => ({
      name: nameOf(combo),
      run: async () => {
        const result = await runProbe({
          kind: "first-path-check",
          check: combo.check,
          workspace,
          path: combo.path,
        });
        const expected = combo.check === "safePath" ? join(workspace, combo.path) : "true";
        if (result.detail !== expected) {
          throw new BenchFailure(`cold ${combo.check}(${combo.path}) gave ${result.detail}`);
        }
        return (result.ms[0] ?? Number.NaN) * 1000;
      },
    }));
    const cold = await roundRobin(COLD_PROCESSES, coldVariants);

    const rows: Row[] = [];
    for (const combo of combos) {
      const name = nameOf(combo);
      const warmSummary = summarize(samplesOf(warm, name));
      const coldSummary = summarize(samplesOf(cold, name));
      rows.push({
        name: `${name}, warm`,
        unit: "µs",
        summary: warmSummary,
        note: `median call of ${WARM_CALLS_PER_ROUND} per run`,
      });
      rows.push({
        name: `${name}, cold`,
        unit: "µs",
        summary: coldSummary,
        note: `first call in a fresh process; ${ratio(coldSummary.median, warmSummary.median)} warm`,
      });
    }
    return {
      title: "Path boundary",
      rows,
      notes: [
        "cold = first call in a new Node process (JIT cold); the OS path cache is warm in both.",
      ],
    };
  });
}
