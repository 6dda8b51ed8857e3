/**
 * The turn limit's last line names a resume that gets a fresh budget of the same size: resume
 * takes `--max-turns` as given to it, so any budget but the default is part of the command.
 */
import { describe, expect, it } from "vitest";
import { turnLimitMessage } from "../../../src/cli/modes/run-failure.js";
import { AgentLimitError } from "../../../src/core/common/agent-errors.js";

const RUN = "20261130T234807Z-4b8baa3a";

describe("turnLimitMessage", () => {
  it.each([
    [
      1,
      `The agent reached its limit of 1 turn without a final answer; to go on: agent resume ${RUN} --max-turns 1 (a fresh budget of 1 turn)`,
    ],
    [
      3,
      `The agent reached its limit of 3 turns without a final answer; to go on: agent resume ${RUN} --max-turns 3 (a fresh budget of 3 turns)`,
    ],
    [
      200,
      `The agent reached its limit of 200 turns without a final answer; to go on: agent resume ${RUN} (a fresh budget of 200 turns)`,
    ],
  ])("a limit of %i", (maxTurns, message) => {
    expect(turnLimitMessage(new AgentLimitError(maxTurns), RUN)).toBe(message);
  });
});
