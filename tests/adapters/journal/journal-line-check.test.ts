/**
 * A resume checks each journal line without zod (journal-line-check.ts), and asks zod only about a
 * line it cannot vouch for. That is safe only if it never vouches for a line zod refuses, and
 * returns exactly what zod's parse returns for one it accepts: checked here on a record of every
 * type with every field, and on thousands of mutations of them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  generatedCodeText,
  JOURNAL_LINE_VOUCH_FILE,
  journalLineShape,
} from "../../../scripts/journal-line-shape.js";
import { readJournalFile } from "../../../src/adapters/journal/index.js";
import { vouchedJournalLine } from "../../../src/adapters/journal/journal-line-check.js";
import { JOURNAL_LINE_SHAPE } from "../../../src/adapters/journal/journal-line-shape.generated.js";
import { journalLineSchema } from "../../../src/adapters/journal/journal-schema.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

const time = "2026-12-06T20:00:00.000Z";
const sha = "a".repeat(64);
const envelope = { v: 1, time };

/** One record of every type, each with every field its schema has (checked below). */
const FULL_RECORDS: readonly Record<string, unknown>[] = [
  {
    ...envelope,
    type: "run_started",
    systemPrompt: "Be brief.",
    prompt: "task",
    runId: "20261206T200000Z-0a0b0c0d",
    workspace: "/ws",
    chapter: 3,
    profile: "P03",
    model: "m",
    sandbox: "off",
    network: false,
    commandTimeoutMs: 120_000,
    instructionsDigest: sha,
    policy: "chapter 3; sandbox off",
  },
  { ...envelope, type: "user_message", content: "next" },
  {
    ...envelope,
    type: "model_reply",
    message: {
      role: "assistant",
      content: null,
      toolCalls: [{ id: "call_0", name: "read_file", arguments: '{"path":"a"}' }],
    },
    usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
  },
  {
    ...envelope,
    type: "call_prepared",
    callId: "call_0",
    tool: "read_file",
    canonicalArguments: '{"path":"a"}',
    argumentsSha256: sha,
  },
  {
    ...envelope,
    type: "decision",
    callId: "call_0",
    behavior: "allow",
    source: "default",
    reason: "No rule",
    scope: "this call only",
  },
  {
    ...envelope,
    type: "execution_started",
    callId: "call_0",
    tool: "shell",
    effect: "execute",
    remote: true,
    beforeImages: true,
    operationId: "op_1",
    environment: "sandbox",
    finalArguments: { cwd: "/ws", timeoutMs: 1000, shell: "bash", network: false },
  },
  { ...envelope, type: "process_started", callId: "call_0", operationId: "op_1", pid: 42 },
  {
    ...envelope,
    type: "execution_finished",
    callId: "call_0",
    outcome: {
      callId: "call_0",
      tool: "shell",
      executed: "yes",
      status: "execution_failed",
      boundary: "execution",
      errorCode: "exit",
      exitCode: 1,
      savedOutput: "/tmp/out",
      operationId: "op_1",
      finalArguments: { cwd: "/ws", timeoutMs: 1000.5 },
      durationMs: 12,
      waitedMs: 3,
      environment: "host",
      decision: { source: "rule", reason: "asked" },
    },
    content: "exit 1",
  },
  {
    ...envelope,
    type: "file_before",
    callId: "call_1",
    file: "a.txt",
    existed: true,
    beforeSha256: sha,
    beforeSize: 0,
    image: { offset: 0, length: 10 },
    notKept: "too large",
    afterSha256: "0123456789abcdef".repeat(4),
    afterSize: 10,
    madeFolders: ["src", "src/new"],
  },
  { ...envelope, type: "file_written", callId: "call_1", file: "a.txt", sha256: sha },
  {
    ...envelope,
    type: "call_undone",
    callId: "call_1",
    occurrence: 1,
    tool: "write_file",
    result: "restored",
    detail: "put back",
  },
  {
    ...envelope,
    type: "history_compacted",
    reason: "auto",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "task" },
      { role: "assistant", content: "ok", toolCalls: [{ id: "c", name: "n", arguments: "{}" }] },
      { role: "tool", toolCallId: "c", content: "result" },
    ],
  },
  { ...envelope, type: "run_resumed" },
  { ...envelope, type: "model_switched", model: "other" },
  {
    ...envelope,
    type: "run_grant",
    action: "granted",
    grant: 1,
    tool: "shell",
    arguments: "ls",
    environment: "sandbox",
    key: "k",
  },
  { ...envelope, type: "conversation_cleared" },
  { ...envelope, type: "run_finished", finalText: "done" },
  { ...envelope, type: "run_failed", error: "boom" },
  { ...envelope, type: "run_cancelled" },
  {
    ...envelope,
    type: "run_waiting",
    callId: "call_2",
    request: { tool: "shell", nested: { a: [1, null] } },
  },
];

/** Values put in place of each field and element: every JSON kind, and the edges zod checks. */
const REPLACEMENTS: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  -1,
  1,
  1.5,
  2 ** 53,
  -(2 ** 53),
  1e308,
  "",
  "x",
  sha,
  sha.toUpperCase(),
  `${sha}\n`,
  "assistant",
  "read",
  "restored",
  "auto",
  "granted",
  "yes",
  "ok",
  "execution",
  [],
  [1],
  ["x"],
  {},
  { a: 1 },
  { a: { b: 1 } },
  JSON.parse('{"__proto__":{"polluted":1},"a":"b"}'),
  JSON.parse('{"constructor":{"prototype":1}}'),
  JSON.parse('{"constructor":"x"}'),
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every mutation of `value` at one place: removed, replaced, or given an extra key. */
function* mutations(value: Json): Generator<Json> {
  if (Array.isArray(value)) {
    for (const [index, element] of value.entries()) {
      yield value.filter((_, at) => at !== index);
      for (const replacement of REPLACEMENTS)
        yield value.map((one, at) => (at === index ? (replacement as Json) : one));
      for (const mutated of mutations(element))
        yield value.map((one, at) => (at === index ? mutated : one));
    }
    yield [...value, ...value.slice(0, 1)];
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const key of Object.keys(value)) {
    const { [key]: removed, ...rest } = value;
    yield rest;
    for (const replacement of REPLACEMENTS) yield { ...value, [key]: replacement as Json };
    for (const mutated of mutations(removed as Json)) yield { ...value, [key]: mutated };
  }
  yield { ...value, extra: "kept out" };
  yield JSON.parse(`{"__proto__":{"type":"run_resumed"},${JSON.stringify(value).slice(1)}`) as Json;
}

/** Asserts the check's answer for `value` is zod's; says which way it went. */
function compare(value: unknown): "vouched" | "left to zod" {
  const zod = journalLineSchema().safeParse(value);
  const vouched = vouchedJournalLine(value);
  if (vouched === undefined) return "left to zod";
  expect(zod.success, `vouched for what zod refuses: ${JSON.stringify(value)}`).toBe(true);
  expect(vouched).toEqual(zod.data);
  // Same keys in the same order: what is replayed and serialised again is zod's output, byte for byte.
  expect(JSON.stringify(vouched)).toBe(JSON.stringify(zod.data));
  return "vouched";
}

describe("journal-line-shape.generated.ts", () => {
  it("is the journal schema's shape (else: npm run journal-line-shape)", () => {
    expect(JSON.stringify(JOURNAL_LINE_SHAPE)).toBe(JSON.stringify(journalLineShape()));
  });

  it("holds the code the generator writes for that shape (else: npm run journal-line-shape)", async () => {
    expect(readFileSync(JOURNAL_LINE_VOUCH_FILE, "utf8")).toBe(await generatedCodeText());
  });

  it("the records below have every field of every record type", () => {
    const options = (
      journalLineSchema() as unknown as {
        options: { shape: Record<string, unknown> }[];
      }
    ).options;
    const fields = options.map((option) => Object.keys(option.shape));
    const types = FULL_RECORDS.map((record) => record.type);
    expect(types).toEqual(options.map((option) => (option.shape.type as { value: string }).value));
    for (const [index, keys] of fields.entries()) {
      expect(Object.keys(FULL_RECORDS[index] ?? {})).toEqual(expect.arrayContaining(keys));
    }
  });
});

describe("vouchedJournalLine", () => {
  it.each(FULL_RECORDS.map((record) => [record.type, record] as const))(
    "vouches for a whole %s record, and returns what zod's parse does",
    (_type, record) => {
      expect(compare(JSON.parse(JSON.stringify(record)))).toBe("vouched");
    },
  );

  it("gives back a record as it was read when zod's copy would be the same, else a copy", () => {
    for (const record of FULL_RECORDS) {
      // As the journal writes it: the schema's keys in the schema's order.
      const asWritten = JSON.parse(JSON.stringify(journalLineSchema().parse(record))) as unknown;
      expect(compare(asWritten)).toBe("vouched");
      expect(vouchedJournalLine(asWritten)).toBe(asWritten);

      // The same record with its keys reversed, and with a key the schema drops: each a copy,
      // equal to zod's (compare checks the order), and the line read is left as it was.
      const entries = Object.entries(asWritten as Record<string, unknown>);
      for (const variant of [
        Object.fromEntries([...entries].reverse()),
        Object.fromEntries([...entries, ["unknownKey", 1]]),
      ]) {
        const before = JSON.stringify(variant);
        expect(compare(variant)).toBe("vouched");
        expect(vouchedJournalLine(variant)).not.toBe(variant);
        expect(JSON.stringify(variant)).toBe(before);
      }
    }
  });

  it("vouches for the smallest record of each type too (optional fields absent)", () => {
    const options = (
      journalLineSchema() as unknown as {
        options: { shape: Record<string, { _zod: { optin?: string } }> }[];
      }
    ).options;
    for (const [index, option] of options.entries()) {
      const full = FULL_RECORDS[index] ?? {};
      const required = Object.fromEntries(
        Object.entries(full).filter(
          ([key]) => key in option.shape && option.shape[key]?._zod.optin !== "optional",
        ),
      );
      expect(compare(required)).toBe("vouched");
    }
  });

  it.each([
    ["a newer version", { ...envelope, v: 2, type: "run_resumed" }],
    ["no time", { v: 1, type: "run_resumed" }],
    ["an unknown type", { ...envelope, type: "run_paused" }],
    ["a type from the prototype", { ...envelope, type: "toString" }],
    ["no type", { ...envelope }],
    ["an array", [{ ...envelope, type: "run_resumed" }]],
    ["a string", "run_resumed"],
    ["null", null],
    [
      "a digest in capitals",
      { ...envelope, type: "file_written", callId: "c", file: "f", sha256: sha.toUpperCase() },
    ],
    ["a pid of 0", { ...envelope, type: "process_started", callId: "c", operationId: "o", pid: 0 }],
    [
      "a pid of 1.5",
      { ...envelope, type: "process_started", callId: "c", operationId: "o", pid: 1.5 },
    ],
    [
      "a pid past 2^53",
      { ...envelope, type: "process_started", callId: "c", operationId: "o", pid: 2 ** 53 },
    ],
    [
      "a grant of -1",
      { ...envelope, type: "run_grant", action: "granted", grant: -1, tool: "t", arguments: "a" },
    ],
    [
      "an unknown effect",
      { ...envelope, type: "execution_started", callId: "c", tool: "t", effect: "delete" },
    ],
    [
      "remote: false",
      { ...envelope, type: "execution_started", callId: "c", tool: "t", remote: false },
    ],
    [
      "an object among final arguments",
      {
        ...envelope,
        type: "execution_started",
        callId: "c",
        tool: "t",
        finalArguments: { cwd: {} },
      },
    ],
    [
      "a reply with no calls list",
      { ...envelope, type: "model_reply", message: { role: "assistant", content: "x" } },
    ],
    [
      "a reply of another role",
      { ...envelope, type: "model_reply", message: { role: "user", content: "x", toolCalls: [] } },
    ],
    [
      "a call without arguments",
      {
        ...envelope,
        type: "model_reply",
        message: { role: "assistant", content: null, toolCalls: [{ id: "c", name: "n" }] },
      },
    ],
    [
      "a negative image offset",
      {
        ...envelope,
        type: "file_before",
        callId: "c",
        file: "f",
        existed: false,
        image: { offset: -1, length: 1 },
        afterSha256: sha,
        afterSize: 1,
      },
    ],
    [
      "a waiting request that is an array",
      { ...envelope, type: "run_waiting", callId: "c", request: [] },
    ],
    [
      "a compacted message of an unknown role",
      {
        ...envelope,
        type: "history_compacted",
        reason: "auto",
        messages: [{ role: "developer", content: "x" }],
      },
    ],
  ])("leaves %s to zod, which refuses it", (_what, value) => {
    expect(vouchedJournalLine(value)).toBeUndefined();
    expect(journalLineSchema().safeParse(value).success).toBe(false);
  });

  it("never vouches for a mutation zod refuses, and returns zod's output for one it accepts", () => {
    const counts = { vouched: 0, "left to zod": 0 };
    for (const record of FULL_RECORDS) {
      for (const mutated of mutations(record as Json)) counts[compare(mutated)] += 1;
    }
    // Both ways, many times each: the loop tested something.
    expect(counts.vouched).toBeGreaterThan(1000);
    expect(counts["left to zod"]).toBeGreaterThan(4000);
  });
});

describe("a journal line the check leaves to zod", () => {
  let dir: TempWorkspace;
  beforeEach(async () => {
    dir = await makeTempWorkspace("agent-journal-line-");
  });
  afterEach(() => dir.cleanup());

  it.each([
    [
      { ...envelope, type: "file_written", callId: "c", file: "f", sha256: "nope" },
      "sha256: Invalid string: must match pattern /^[0-9a-f]{64}$/",
    ],
    [
      { ...envelope, type: "run_paused" },
      "type: Invalid discriminator value. Expected 'run_started' | 'user_message' | 'model_reply' | " +
        "'call_prepared' | 'decision' | 'execution_started' | 'process_started' | " +
        "'execution_finished' | 'file_before' | 'file_written' | 'call_undone' | " +
        "'history_compacted' | 'run_resumed' | 'model_switched' | 'run_grant' | " +
        "'conversation_cleared' | 'run_finished' | 'run_failed' | 'run_cancelled' | 'run_waiting'",
    ],
    [{ ...envelope, v: 2, type: "run_resumed" }, "v: Invalid input: expected 1"],
  ])("is refused with zod's words: %j", (line, words) => {
    const path = join(dir.outside, "20261206T200000Z-0a0b0c0d.jsonl");
    writeFileSync(path, `${JSON.stringify(FULL_RECORDS[0])}\n${JSON.stringify(line)}\n`);
    expect(() => readJournalFile(path)).toThrow(
      `the run journal ${path} cannot be read at line 2: it is not a journal record of version 1 (${words}); it was left as it is`,
    );
  });
});
