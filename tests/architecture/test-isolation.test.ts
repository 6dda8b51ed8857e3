/**
 * The unit project shares one module cache per worker across files (`isolate: false` in
 * vitest.config.ts). That is only sound while no unit file leaves the process different from how
 * it found it. These rules are what the shared cache relies on; a file that needs more is named
 * `*.isolated.test.ts` and runs with a module graph of its own.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const TESTS = fileURLToPath(new URL("..", import.meta.url));
/** This file names the patterns it looks for. */
const SELF = relative(TESTS, fileURLToPath(import.meta.url));

function testFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The files the unit and e2e projects run in a shared module cache (see vitest.config.ts). */
function sharedCacheFiles(): { name: string; text: string }[] {
  return testFiles(TESTS)
    .map((path) => relative(TESTS, path))
    .filter((name) => name !== SELF)
    .filter((name) => !name.endsWith(".slow.test.ts") && !name.endsWith(".isolated.test.ts"))
    .map((name) => ({ name, text: readFileSync(join(TESTS, name), "utf8") }));
}

interface Rule {
  readonly what: string;
  readonly uses: RegExp;
  /** What undoes it in the same file; none: only an isolated file may do it. */
  readonly undoneBy?: RegExp;
}

const RULES: readonly Rule[] = [
  { what: "replaces a module", uses: /\bvi\.(?:do)?[mM]ock\(|\bvi\.resetModules\(/ },
  {
    what: "stubs a global or the environment",
    uses: /\bvi\.stub(?:Env|Global)\(/,
    undoneBy: /\bvi\.unstubAll(?:Envs|Globals)\(/,
  },
  { what: "changes the working directory or umask", uses: /\bprocess\.(?:chdir|umask)\(/ },
  { what: "fakes the clock", uses: /\bvi\.useFakeTimers\(/, undoneBy: /\bvi\.useRealTimers\(/ },
  {
    what: "listens on the process",
    uses: /\bprocess\.(?:on|once|addListener|prependListener)\(/,
    undoneBy: /\bprocess\.(?:off|removeListener|removeAllListeners)\(/,
  },
];

/** Each file that breaks a rule, with the rule: [] when the shared cache is sound. */
function breaches(files: readonly { name: string; text: string }[]): string[] {
  return files.flatMap(({ name, text }) =>
    RULES.filter((rule) => rule.uses.test(text) && !(rule.undoneBy?.test(text) ?? false)).map(
      (rule) => `${name} ${rule.what}: name it *.isolated.test.ts or undo it in the file`,
    ),
  );
}

describe("unit files share a module cache", () => {
  it("none replaces a module, stubs process state or leaves a clock or listener behind", () => {
    expect(breaches(sharedCacheFiles())).toEqual([]);
  });

  it("would name a file that mocks a module, or fakes the clock and never restores it", () => {
    expect(
      breaches([
        { name: "a.test.ts", text: 'vi.mock("node:fs");' },
        { name: "b.test.ts", text: "vi.useFakeTimers();" },
        { name: "c.test.ts", text: "vi.useFakeTimers(); afterEach(() => vi.useRealTimers());" },
      ]),
    ).toEqual([
      "a.test.ts replaces a module: name it *.isolated.test.ts or undo it in the file",
      "b.test.ts fakes the clock: name it *.isolated.test.ts or undo it in the file",
    ]);
  });
});
