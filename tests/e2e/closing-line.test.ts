/**
 * Issue 41 item 11 through the built CLI: the closing line of a long run sums up the tokens per
 * turn as min, median and max instead of listing every turn's (170 numbers after 170 calls);
 * --verbose still lists them.
 */
import { describe, expect, it } from "vitest";
import {
  chatTextReply,
  chatToolCallsReply,
  chatUsage,
} from "../support/chat-completions-server.js";
import { stderrLines } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

/** Six turns: five glob calls, then the answer; the provider's count grows by 10 each turn. */
function scriptSixTurns(): void {
  e2e.server.script(
    ...[1, 2, 3, 4, 5].map((turn) =>
      chatToolCallsReply([{ id: `call_${turn}`, name: "glob", arguments: { pattern: "*.md" } }], {
        usage: chatUsage(turn * 10 - 1, 1),
      }),
    ),
    chatTextReply("Done.", { usage: chatUsage(59, 1) }),
  );
}

describe("the closing line of a long run", () => {
  it("says min, median and max tokens per turn; --verbose lists each", async () => {
    scriptSixTurns();
    const run = await e2e.agent(["--prompt", "Look around"]);
    expect(run.exitCode).toBe(0);
    expect(stderrLines(run).at(-1)).toBe(
      "done in 6 turns · 5 calls: 5 ran · tokens 210 (prompt 204, completion 6) · per turn min 10 · median 35 · max 60",
    );

    scriptSixTurns();
    const verbose = await e2e.agent(["--verbose", "--prompt", "Look around"]);
    expect(stderrLines(verbose).at(-1)).toMatch(/ · per turn 10, 20, 30, 40, 50, 60$/u);
  });
});
