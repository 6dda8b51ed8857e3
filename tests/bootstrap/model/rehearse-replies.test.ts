import { Agent, globalAgent } from "node:http";
import { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ModelReply } from "../../../src/core/ports/model.js";
import { OpenAIChatModelClient } from "../../../src/adapters/model/openai-chat.js";
import { rehearseReplies } from "../../../src/bootstrap/model/rehearse-replies.js";
import { newResources } from "../../support/new-resources.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const TOOL_CALL = { id: "call_0", name: "read_file", arguments: '{"path":"a"}' };
const USAGE = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

describe("rehearseReplies", () => {
  it("reads a whole reply and a streamed one through the model client, in memory", async () => {
    const connect = vi.spyOn(Socket.prototype, "connect");
    const complete = vi.spyOn(OpenAIChatModelClient.prototype, "complete");
    const reused = vi.spyOn(Agent.prototype, "reuseSocket");
    const resourcesBefore = process.getActiveResourcesInfo();

    await rehearseReplies();

    const replies = await Promise.all(
      complete.mock.results.map((result) => result.value as Promise<ModelReply>),
    );
    expect(replies).toEqual([
      {
        message: { role: "assistant", content: null, toolCalls: [TOOL_CALL] },
        finishReason: "tool_calls",
        usage: USAGE,
      },
      {
        message: { role: "assistant", content: ".", toolCalls: [TOOL_CALL] },
        finishReason: "tool_calls",
        usage: USAGE,
      },
    ]);
    // The second request answers the first reply's call, on the connection it left open.
    expect(complete.mock.calls[1]?.[0].messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
    ]);
    expect(reused).toHaveBeenCalledTimes(1);
    expect(connect).not.toHaveBeenCalled();
    expect(Object.keys(globalAgent.sockets)).toEqual([]);
    expect(Object.keys(globalAgent.freeSockets)).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(newResources(resourcesBefore)).toEqual([]);
  });

  it("settles, and throws nothing, when node's client fails it", async () => {
    vi.spyOn(Agent.prototype, "getName").mockImplementation(() => {
      throw new Error("not today");
    });
    const resourcesBefore = process.getActiveResourcesInfo();
    await expect(rehearseReplies()).resolves.toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(newResources(resourcesBefore)).toEqual([]);
  });
});
