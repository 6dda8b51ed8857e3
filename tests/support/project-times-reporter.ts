/**
 * A vitest reporter that ends the run with one line per project: how many files, how long from its
 * first file's start to its last file's end, and its slowest file. The projects run side by side,
 * so the times overlap; they say where a run's time goes (and when the fast gate stops being fast).
 */
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

interface ProjectTime {
  files: number;
  firstStart: number;
  lastEnd: number;
  slowest: { file: string; ms: number } | undefined;
}

export default class ProjectTimesReporter implements Reporter {
  readonly #started = new Map<string, number>();
  readonly #projects = new Map<string, ProjectTime>();

  onTestModuleStart(module: TestModule): void {
    this.#started.set(module.id, Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const end = Date.now();
    const start = this.#started.get(module.id) ?? end;
    const name = module.project.name;
    const time = this.#projects.get(name) ?? {
      files: 0,
      firstStart: start,
      lastEnd: end,
      slowest: undefined,
    };
    const ms = module.diagnostic().duration;
    this.#projects.set(name, {
      files: time.files + 1,
      firstStart: Math.min(time.firstStart, start),
      lastEnd: Math.max(time.lastEnd, end),
      slowest:
        time.slowest === undefined || ms > time.slowest.ms
          ? { file: relative(process.cwd(), module.moduleId), ms }
          : time.slowest,
    });
  }

  onTestRunEnd(): void {
    if (this.#projects.size === 0) return;
    const lines = [...this.#projects].map(([name, time]) => {
      const slowest =
        time.slowest === undefined
          ? ""
          : `, slowest ${time.slowest.file} ${seconds(time.slowest.ms)}`;
      return `  ${name}: ${String(time.files)} files in ${seconds(time.lastEnd - time.firstStart)}${slowest}`;
    });
    process.stdout.write(`\nTime per project (they overlap):\n${lines.join("\n")}\n`);
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
