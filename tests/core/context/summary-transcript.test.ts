/**
 * Issue 41: the summary's transcript holds every older message. One that does not fit is
 * shortened to its head and tail, never dropped with everything before it.
 */
import { describe, expect, it } from "vitest";
import { transcript } from "../../../src/core/context/summary-request.js";
import { ContextMeter } from "../../../src/core/context/context-meter.js";
import {
  estimateMessagesTokens,
  estimateToolsTokens,
} from "../../../src/core/context/context-budget.js";
import type { Message } from "../../../src/core/ports/messages.js";

const answer = (text: string): Message => ({ role: "assistant", content: text, toolCalls: [] });

describe("transcript", () => {
  it("keeps every message whole when they fit", () => {
    expect(transcript([{ role: "user", content: "hi" }, answer("hello")], 100)).toBe(
      "USER: hi\n\nASSISTANT: hello",
    );
  });

  it("shortens the long message head and tail, keeps the short ones whole", () => {
    const long = `START ${"x".repeat(6000)} END`;
    const text = transcript(
      [answer(long), { role: "user", content: "Second" }, answer("Ok.")],
      500,
    );
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text).toMatch(/^ASSISTANT: START x+ \[… \d+ characters left out …\] x+ END\n\n/);
    expect(text.endsWith("\n\nUSER: Second\n\nASSISTANT: Ok.")).toBe(true);
  });

  it("gives each of many long messages a share, so none is left out", () => {
    const older = Array.from({ length: 10 }, (_, index) =>
      answer(`M${String(index)} ${"z".repeat(3000)} E${String(index)}`),
    );
    const text = transcript(older, 2000);
    expect(text.length).toBeLessThanOrEqual(8000);
    for (let index = 0; index < 10; index += 1) {
      expect(text).toContain(`ASSISTANT: M${String(index)} z`);
      expect(text).toContain(`z E${String(index)}`);
    }
  });
});

describe("ContextMeter", () => {
  it("forgets the provider's count once the messages before its last one changed", () => {
    const meter = new ContextMeter();
    const last = answer("Third answer.");
    const first: Message = { role: "user", content: "First" };
    const third: Message = { role: "user", content: "Third" };
    const history: Message[] = [first, answer("x".repeat(4000)), third, last];
    meter.counted(history, { promptTokens: 1900, completionTokens: 82, totalTokens: 1982 });
    expect(meter.measure(history, [])).toBe(1982);
    // Compacted to the same length, the last reply at the same index.
    const compacted: Message[] = [first, { role: "user", content: "Summary" }, third, last];
    expect(meter.measure(compacted, [])).toBe(
      estimateMessagesTokens(compacted) + estimateToolsTokens([]),
    );
  });
});
