import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** Every relative import of a source file, type-only ones too: a cycle of types is still a knot. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(IMPORT)].map((match) =>
      resolve(dirname(file), (match[1] ?? "").replace(/\.js$/, ".ts")),
    );
    graph.set(file, targets);
  }
  return graph;
}

/** The first cycle found by a depth-first walk, as a list of src-relative paths; none: []. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string): string[] => {
    const at = onPath.indexOf(file);
    if (at !== -1) return [...onPath.slice(at), file];
    if (done.has(file)) return [];
    onPath.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle.length > 0) return cycle;
    }
    onPath.pop();
    done.add(file);
    return [];
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle.length > 0) return cycle.map((path) => relative(SRC, path));
  }
  return [];
}

describe("src/ import graph", () => {
  it("has no cycle", () => {
    expect(findCycle(importGraph())).toEqual([]);
  });

  it("finds a cycle when there is one (the check can fail)", () => {
    const graph = new Map([
      ["/a.ts", ["/b.ts"]],
      ["/b.ts", ["/c.ts"]],
      ["/c.ts", ["/a.ts"]],
    ]);
    expect(findCycle(graph).length).toBe(4);
  });
});
