/**
 * The tool path checks a builtin tool's arguments without zod when the tool's schema-as-data
 * vouches for them (src/core/common/vouch.ts), and asks zod about anything else. That is safe only
 * if it never vouches for arguments zod refuses, and returns exactly what zod's parse returns for
 * ones it accepts: checked here for every builtin tool on arguments with every field, and on
 * thousands of mutations of them (unknown keys, wrong types, bounds ±1, missing fields, nesting).
 */
import { describe, expect, it } from "vitest";
import { builtinTools } from "../../scripts/tool-parameters.js";
import { vouchFor, type Vouch } from "../../src/core/common/vouch.js";
import type { ToolDefinition } from "../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../src/core/tools/tool-registry.js";
import { registeredTool } from "../../src/core/tools/registered-tool.js";
import { createReadFileTool } from "../../src/features/read-file-tool.js";
import type { ReadFileResult, WorkspaceFileSystem } from "../../src/core/ports/filesystem.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Valid arguments of each builtin tool; together they give every field a value, at its bounds. */
const VALID: Readonly<Record<string, readonly Json[]>> = {
  shell: [{ command: "ls -la" }, { command: "x" }],
  run_command: [
    { command: "npm", args: ["run", "lint"] },
    { command: "n", args: [] },
  ],
  read_file: [
    { path: "notes.txt" },
    { path: "", offset: 1, limit: 1 },
    { path: "a", offset: Number.MAX_SAFE_INTEGER, limit: 2 },
  ],
  write_file: [{ path: "a", content: "" }],
  edit_file: [
    { path: "a", old_string: "x", new_string: "" },
    { path: "a", old_string: "x y", new_string: "z", replace_all: false },
  ],
  glob: [{ pattern: "src/**/*.ts" }, { pattern: "" }],
  grep: [
    { pattern: "x" },
    {
      pattern: "a|b",
      fixed_strings: true,
      ignore_case: false,
      glob: "*.ts",
      context: 20,
      max_results: 2000,
    },
    { pattern: "x", context: 0, max_results: 1, glob: "" },
    { pattern: "x", path: "src" },
  ],
  fetch_url: [{ url: "https://example.com/" }],
};

/** What each field is replaced with: every JSON kind, and numbers around every bound. */
const REPLACEMENTS: readonly Json[] = [
  null,
  true,
  false,
  "",
  "a",
  "1",
  " ",
  -1,
  -0,
  0,
  1,
  2,
  1.5,
  19,
  20,
  21,
  1999,
  2000,
  2001,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1,
  1e300,
  [],
  [""],
  ["x", "y"],
  [1],
  [null],
  [["x"]],
  {},
  { a: 1 },
  { path: "a" },
  JSON.parse('{"__proto__":{"path":"a"}}') as Json,
];

/** Every mutation of `value` at one place: removed, replaced, nested, or given an extra key. */
function* mutations(value: Json): Generator<Json> {
  if (Array.isArray(value)) {
    for (const [index, element] of value.entries()) {
      yield value.filter((_, at) => at !== index);
      for (const replacement of REPLACEMENTS)
        yield value.map((one, at) => (at === index ? replacement : one));
      for (const mutated of mutations(element))
        yield value.map((one, at) => (at === index ? mutated : one));
    }
    for (const replacement of REPLACEMENTS) yield [...value, replacement];
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const key of Object.keys(value)) {
    const { [key]: removed, ...rest } = value;
    yield rest;
    for (const replacement of REPLACEMENTS) yield { ...value, [key]: replacement };
    for (const mutated of mutations(removed as Json)) yield { ...value, [key]: mutated };
  }
  yield { ...value, extra: "kept out" };
  yield { ...value, requires_approval: false };
  yield JSON.parse(`{"__proto__":{"path":"a"},${JSON.stringify(value).slice(1)}`) as Json;
  yield JSON.parse(`{"constructor":"x",${JSON.stringify(value).slice(1)}`) as Json;
}

function vouchOf(tool: ToolDefinition): Vouch {
  expect(tool.argumentShape, `${tool.name} has no argument shape`).toBeDefined();
  return vouchFor(tool.argumentShape ?? "unknown");
}

/** Asserts the vouch's answer for `value` is zod's; says which way it went. */
function compare(tool: ToolDefinition, vouch: Vouch, value: unknown): "vouched" | "left to zod" {
  const zod = tool.schema.safeParse(value);
  const vouched = vouch(value);
  if (vouched === undefined) return "left to zod";
  expect(zod.success, `vouched for what zod refuses: ${JSON.stringify(value)}`).toBe(true);
  expect(vouched).toEqual(zod.data);
  // Same keys in the same order: what the journal records and the handler gets is zod's output.
  expect(JSON.stringify(vouched)).toBe(JSON.stringify(zod.data));
  return "vouched";
}

describe("builtin tools' argument shapes", () => {
  it("have valid arguments listed here for every builtin tool, each with every field somewhere", () => {
    for (const tool of builtinTools()) {
      const valid = VALID[tool.name] ?? [];
      const fields = new Set(valid.flatMap((value) => Object.keys(value as object)));
      expect([...fields].sort(), tool.name).toEqual(Object.keys(tool.schema.shape).sort());
    }
  });

  it.each(builtinTools().map((tool) => [tool.name, tool] as const))(
    "%s: vouches for its valid arguments, and for no mutation zod refuses or parses otherwise",
    (_name, tool) => {
      const vouch = vouchOf(tool);
      const counts = { vouched: 0, "left to zod": 0 };
      for (const valid of VALID[tool.name] ?? []) {
        expect(compare(tool, vouch, valid), JSON.stringify(valid)).toBe("vouched");
        for (const mutated of mutations(valid)) counts[compare(tool, vouch, mutated)] += 1;
      }
      // Both ways are taken: a check that vouched for nothing (or everything) could not fail here.
      expect(counts.vouched).toBeGreaterThan(0);
      expect(counts["left to zod"]).toBeGreaterThan(20);
    },
  );

  it.each([null, "x", 1, [], [{ path: "a" }], new Date(0), Object.create(null) as object])(
    "vouches for no root that is not a plain object: %j",
    (value) => {
      for (const tool of builtinTools()) expect(vouchOf(tool)(value)).toBeUndefined();
    },
  );
});

/** read_file over a file system that answers one line, with a schema getter that counts. */
function countingReadFile(): { tool: ToolDefinition; schemaReads: () => number } {
  const read: ReadFileResult = { text: "hello\n", firstLine: 1, lastLine: 1, totalLines: 1 };
  const real = createReadFileTool({
    fileSystem: { readFile: () => Promise.resolve(read) } as unknown as WorkspaceFileSystem,
  });
  let reads = 0;
  const tool = Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(real),
      schema: {
        enumerable: true,
        get: () => {
          reads += 1;
          return real.schema;
        },
      },
    },
  ) as ToolDefinition;
  return { tool, schemaReads: () => reads };
}

describe("the tool path with a vouched-for call", () => {
  it("prepares and runs a valid read_file call without reading its schema (zod's loader)", async () => {
    const { tool, schemaReads } = countingReadFile();
    const registry = new ToolRegistry([tool]);
    registry.prepareSchemas();
    const tools = registry.snapshot();
    const call = { id: "call_1", name: "read_file", arguments: '{"path":"notes.txt","limit":3}' };
    const outcome = tools.prepare(call);
    if (!outcome.ok) throw new Error(outcome.result.content);
    expect(outcome.call.input).toEqual({ path: "notes.txt", limit: 3 });
    expect(await tools.precheck(outcome.call)).toBeUndefined();
    expect(await outcome.call.execute()).toEqual({ content: "hello\n", isError: false });
    expect(schemaReads()).toBe(0);
  });

  it.each([
    ['{"path":1}', "path: Invalid input: expected string, received number"],
    ['{"path":"a","offset":0}', "offset: Too small: expected number to be >=1"],
    ['{"path":"a","requires_approval":false}', "requires_approval: unexpected field"],
  ])("leaves %s to zod, refused with zod's message", (args, message) => {
    const { tool, schemaReads } = countingReadFile();
    const outcome = new ToolRegistry([tool])
      .snapshot()
      .prepare({ id: "call_1", name: "read_file", arguments: args });
    expect(outcome).toEqual({
      ok: false,
      result: {
        content: `Error [invalid_arguments]: Invalid arguments for read_file: ${message}`,
        isError: true,
        errorCode: "invalid_arguments",
      },
    });
    expect(schemaReads()).toBe(1);
  });

  it("the seed's view prepares a valid call without reading the schema, and throws zod's error else", () => {
    const { tool, schemaReads } = countingReadFile();
    const seedView = registeredTool(tool);
    expect(seedView.prepare({ path: "notes.txt" }).input).toEqual({ path: "notes.txt" });
    expect(schemaReads()).toBe(0);
    expect(() => seedView.prepare({ path: "a", extra: 1 })).toThrow(
      /"code": "unrecognized_keys",\s+"keys": \[\s+"extra"/,
    );
    expect(schemaReads()).toBe(1);
  });

  it("refuses to register a shape that is not a strict object", () => {
    const { tool } = countingReadFile();
    const loose = { ...Object.getOwnPropertyDescriptors(tool) };
    const looseTool = Object.defineProperties({}, loose) as ToolDefinition;
    expect(
      () =>
        new ToolRegistry([
          Object.defineProperty(looseTool, "argumentShape", {
            value: { object: { path: "string" } },
          }),
        ]),
    ).toThrow("Tool read_file has an argument shape that is not strict");
  });
});
