/**
 * src/core reads from the ground up: each stage imports only its own files and the stages below
 * it, never one above. A shared piece (an error class, a request's shape) lives in the lowest
 * stage that uses it, so a lower stage never has to reach up for it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CORE = fileURLToPath(new URL("../../src/core", import.meta.url));

/** Lowest first. `profiles` is core's one loose file: data above every stage. */
const STAGES = [
  "ports",
  "common",
  "tools",
  "policy",
  "grants",
  "context",
  "journal",
  "runner",
  "profiles",
] as const;

/** Every relative import, type-only ones too: a type from above is still a dependency on it. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `grants/policy.ts` → `grants`; `profiles.ts` → `profiles`. */
function stageOf(coreRelative: string): string {
  const [first = ""] = coreRelative.split("/");
  return first.replace(/\.ts$/, "");
}

/** Each import from a stage into a higher one, as `from -> to`; none: []. */
function upwardImports(imports: ReadonlyMap<string, readonly string[]>): string[] {
  const rank = (stage: string): number => STAGES.indexOf(stage as (typeof STAGES)[number]);
  const found: string[] = [];
  for (const [file, targets] of imports) {
    for (const target of targets) {
      if (rank(stageOf(target)) > rank(stageOf(file))) found.push(`${file} -> ${target}`);
    }
  }
  return found;
}

function coreImports(): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  for (const file of sourceFiles(CORE)) {
    const text = readFileSync(file, "utf8");
    imports.set(
      relative(CORE, file),
      [...text.matchAll(IMPORT)].map((match) =>
        relative(CORE, resolve(dirname(file), (match[1] ?? "").replace(/\.js$/, ".ts"))),
      ),
    );
  }
  return imports;
}

describe("src/core stages", () => {
  it("every file is in a known stage", () => {
    const unknown = [...coreImports().keys()].filter(
      (file) => !(STAGES as readonly string[]).includes(stageOf(file)),
    );
    expect(unknown).toEqual([]);
  });

  it("no stage imports one above it", () => {
    expect(upwardImports(coreImports())).toEqual([]);
  });

  it("finds an import that runs back up (the check can fail)", () => {
    const imports = new Map([
      ["policy/permissions.ts", ["tools/tool-result.ts", "runner/agent-errors.ts"]],
      ["runner/agent-runner.ts", ["policy/permissions.ts"]],
    ]);
    expect(upwardImports(imports)).toEqual(["policy/permissions.ts -> runner/agent-errors.ts"]);
  });
});
