/**
 * A run that starts no MCP server must not load the MCP SDK (start-up unchanged when no server
 * is configured): from the CLI's entry, no chain of static imports reaches the SDK or our one
 * module that imports it (src/adapters/mcp/sdk.ts); that module is reached only by `import()`,
 * which runs when a server starts. The bundle keeps the same cut (scripts/bundle.js builds
 * sdk.ts into dist/agent-mcp.cjs); tests/e2e/mcp.test.ts and mcp-chapters.test.ts watch it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const ENTRY = join(SRC, "cli.ts");
const SDK_MODULE = join(SRC, "adapters", "mcp", "sdk.ts");
const SDK_PACKAGE = "@modelcontextprotocol/sdk";

/**
 * What a module loads when it is loaded: `import … from`, `export … from` and `import "…"`, but
 * not `import type`/`export type` (erased), nor `import()` (loaded when it runs). With
 * verbatimModuleSyntax, `import { type A }` still loads its module, so it counts.
 */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s+["']([^"']+)["']/gmu;
const BARE_IMPORT = /^import\s+["']([^"']+)["']/gmu;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*["']([^"']+)["']\s*\)/gu;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** A relative specifier as the source file it names; a package stays as it is written. */
function target(file: string, specifier: string): string {
  return specifier.startsWith(".")
    ? resolve(dirname(file), specifier.replace(/\.js$/u, ".ts"))
    : specifier;
}

function graphOf(pattern: readonly RegExp[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const targets = pattern.flatMap((regex) =>
      [...text.matchAll(regex)].map((match) => target(file, match[1] ?? "")),
    );
    graph.set(file, targets);
  }
  return graph;
}

/** Every module a walk of static imports from `entry` loads, in the order it finds them. */
function loadedFrom(graph: ReadonlyMap<string, readonly string[]>, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (module: string): void => {
    if (seen.has(module)) return;
    seen.add(module);
    for (const next of graph.get(module) ?? []) visit(next);
  };
  visit(entry);
  return seen;
}

function sdkModules(loaded: ReadonlySet<string>): string[] {
  return [...loaded]
    .filter((module) => module === SDK_MODULE || module.startsWith(SDK_PACKAGE))
    .map((module) => (module.startsWith(SRC) ? relative(SRC, module) : module));
}

describe("the MCP SDK is loaded only when a server starts", () => {
  const statics = graphOf([STATIC_IMPORT, BARE_IMPORT]);
  const loaded = loadedFrom(statics, ENTRY);

  it("the CLI's static imports reach the MCP adapter, but neither the SDK nor sdk.ts", () => {
    // The walk does reach the run's composition and the adapter that starts servers…
    expect(loaded.has(join(SRC, "bootstrap", "compose-run.ts"))).toBe(true);
    expect(loaded.has(join(SRC, "adapters", "mcp", "mcp-connection.ts"))).toBe(true);
    // …and stops there.
    expect(sdkModules(loaded)).toEqual([]);
  });

  it("sdk.ts is reached only by import(), and only from the MCP adapter", () => {
    const dynamic = graphOf([DYNAMIC_IMPORT]);
    const importers = [...dynamic]
      .filter(([, targets]) => targets.includes(SDK_MODULE))
      .map(([file]) => relative(SRC, file));
    expect(importers).toEqual([join("adapters", "mcp", "mcp-connection.ts")]);
    // Outside sdk.ts, no source file names the SDK's package in a static import.
    const naming = [...statics]
      .filter(
        ([file, targets]) => file !== SDK_MODULE && targets.some((t) => t.startsWith(SDK_PACKAGE)),
      )
      .map(([file]) => relative(SRC, file));
    expect(naming).toEqual([]);
  });

  it("finds the SDK when a static import leads to it (the check can fail)", () => {
    const graph = new Map([
      [ENTRY, ["/a.ts"]],
      ["/a.ts", [SDK_MODULE]],
      [SDK_MODULE, [`${SDK_PACKAGE}/client/index.js`]],
    ]);
    expect(sdkModules(loadedFrom(graph, ENTRY))).toEqual([
      relative(SRC, SDK_MODULE),
      `${SDK_PACKAGE}/client/index.js`,
    ]);
    const text =
      'import type { X } from "./sdk.js";\nimport {\n  a,\n  type B,\n} from "./b.js";\n';
    expect([...text.matchAll(STATIC_IMPORT)].map((match) => match[1])).toEqual(["./b.js"]);
  });
});
