/**
 * Servers that number tool calls per reply (`call_0` in every reply) would pair a result with the
 * wrong call; the reply's repeated or empty ids are replaced by fresh ones before anything runs.
 */
import { describe, expect, it } from "vitest";
import { checkedReply } from "../../../src/core/runner/model-reply-checks.js";
import { toolCallReply } from "../../support/scripted-model.js";

const ids = (used: string[], replyIds: string[]): string[] =>
  checkedReply(
    toolCallReply(replyIds.map((id) => ({ id, name: "shell", arguments: { command: "ls" } }))),
    new Set(used),
  ).toolCalls.map((call) => call.id);

describe("fresh call ids", () => {
  it("keeps ids new to the conversation", () => {
    expect(ids(["call_0"], ["call_1", "call_2"])).toEqual(["call_1", "call_2"]);
  });

  it("replaces an id an earlier reply used", () => {
    expect(ids(["call_0", "call_1"], ["call_0", "call_1"])).toEqual(["call_0_2", "call_1_2"]);
  });

  it("replaces the second of two equal ids in one reply, and an empty one", () => {
    expect(ids([], ["call_0", "call_0", ""])).toEqual(["call_0", "call_0_2", "call_2"]);
  });

  it("never takes an id the conversation or the reply itself has", () => {
    expect(ids(["a", "a_2"], ["a", "a_3"])).toEqual(["a_4", "a_3"]);
  });

  it("leaves the rest of a call as it was", () => {
    const [call] = checkedReply(
      toolCallReply([{ id: "x", name: "read_file", arguments: { path: "a.txt" } }]),
      new Set(["x"]),
    ).toolCalls;
    expect(call).toEqual({ id: "x_2", name: "read_file", arguments: '{"path":"a.txt"}' });
  });
});

describe("a fresh id for a repeated long one", () => {
  it("stays within the length ids are kept at", () => {
    const long = "c".repeat(256);
    const [, second] = ids([], [long, long]);
    expect(second?.length).toBeLessThanOrEqual(256);
    expect(second).not.toBe(long);
  });
});
