import { describe, expect, it } from "vitest";
import {
  compactedHistory,
  planCompaction,
  SUMMARY_HEADING,
} from "../../../src/core/context/compaction.js";
import { describeContext, INSTRUCTIONS_HEADING } from "../../../src/core/context/context-report.js";
import { defaultContextWindow } from "../../../src/core/context/context-budget.js";
import { validateToolPairing, type Message } from "../../../src/core/ports/messages.js";

const big = (id: string): string => `${"y".repeat(3000)} saved at .agent/outputs/${id}.log`;

/** An assistant message with two calls and their results: a unit that must stay whole. */
function step(n: number, content = big(`call_${String(n)}a`)): Message[] {
  return [
    {
      role: "assistant",
      content: null,
      toolCalls: [
        { id: `call_${String(n)}a`, name: "shell", arguments: "{}" },
        { id: `call_${String(n)}b`, name: "shell", arguments: "{}" },
      ],
    },
    { role: "tool", toolCallId: `call_${String(n)}a`, content },
    { role: "tool", toolCallId: `call_${String(n)}b`, content: "small" },
  ];
}

const history: Message[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "the task" },
  ...step(1),
  ...step(2),
  { role: "user", content: "now also this" },
  ...step(3),
  ...step(4),
  ...step(5),
  ...step(6),
];

describe("planCompaction", () => {
  it("keeps system, task, the latest user line and recent units whole; the result stays paired", () => {
    const plan = planCompaction(history, 3_000);
    expect(plan).toBeDefined();
    if (plan === undefined) return;
    const compacted = compactedHistory(plan, "  what happened  ");
    validateToolPairing(compacted);
    expect(compacted.slice(0, 4)).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "the task" },
      { role: "user", content: `${SUMMARY_HEADING}\nwhat happened` },
      { role: "user", content: "now also this" },
    ]);
    // The newest two units keep their results whole; older kept ones get a pointer.
    expect(compacted.slice(-6)).toEqual([...step(5), ...step(6)]);
    const pointers = compacted.filter(
      (message) => message.role === "tool" && message.content.startsWith("[tool result of"),
    );
    for (const pointer of pointers) {
      expect(pointer.content).toMatch(
        /^\[tool result of 3036 characters removed to save context; the whole output is saved at \.agent\/outputs\/call_\da\.log\]$/,
      );
    }
    expect(plan.older[0]).toEqual(step(1)[0]);
  });

  it("a later user line in the kept turns: the older one is not repeated", () => {
    const plan = planCompaction([...history, { role: "user", content: "last" }, ...step(7)], 2_500);
    const users = plan?.tail.filter((message) => message.role === "user") ?? [];
    expect(users).toEqual([{ role: "user", content: "last" }]);
  });

  it("nothing older than the kept units: no plan", () => {
    expect(planCompaction(history.slice(0, 5), 10)).toBeUndefined();
    expect(planCompaction(history, 1_000_000)).toBeUndefined();
  });
});

describe("describeContext", () => {
  it("splits the system message from the instructions, and counts each kind", () => {
    const report = describeContext(
      [{ role: "system", content: `sys\n\n${INSTRUCTIONS_HEADING}\n\nrules` }, ...history.slice(1)],
      ["shell", "read_file"].map((name) => ({ name, description: name, parameters: {} })),
      { window: 16_384, tokens: 5_000 },
    );
    expect(report.rows.map((row) => [row.label, row.count])).toEqual([
      ["system", 1],
      ["instructions (AGENTS.md)", 1],
      ["user lines", 2],
      ["model replies", 6],
      ["tool results", 12],
      ["tool definitions", 2],
    ]);
    expect(report.tokens).toBe(5_000);
  });
});

describe("defaultContextWindow", () => {
  it.each([
    ["gpt-4.1-mini", 1_047_576],
    ["gpt-4o", 128_000],
    ["o4-mini", 200_000],
    ["o3", 200_000],
    ["gpt-5-codex", 400_000],
    ["openai/gpt-4o-mini", 128_000],
    ["llama3.1:8b", 131_072],
    ["my-local-model", 32_768],
  ])("%s: %d", (model, tokens) => {
    expect(defaultContextWindow(model)).toBe(tokens);
  });
});
