import { describe, expect, it } from "vitest";
import { FirstRequestHook } from "../../src/bootstrap/model/first-request-hook.js";
import type { ModelRequest } from "../../src/core/ports/model.js";
import { ScriptedModelClient, textReply } from "../support/scripted-model.js";

const REQUEST: ModelRequest = { messages: [{ role: "user", content: "hi" }], tools: [] };

describe("FirstRequestHook", () => {
  it("calls onFirstRequest once, on the next turn after the first request was handed to the model", async () => {
    const model = new ScriptedModelClient([textReply("one"), textReply("two")]);
    const requestsSeen: number[] = [];
    const hook = new FirstRequestHook(model, () => {
      requestsSeen.push(model.requests.length);
    });

    const first = hook.complete(REQUEST);
    expect(requestsSeen).toEqual([]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(requestsSeen).toEqual([1]);
    expect((await first).message.content).toBe("one");
    expect((await hook.complete(REQUEST)).message.content).toBe("two");
    expect(requestsSeen).toEqual([1]);
  });

  it("holds no reply: what it started may still be running when the reply is handed on", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    let probeDone = false;
    const hook = new FirstRequestHook(model, () => {
      // A probe that never ends within this test.
      void new Promise<void>(() => undefined).then(() => (probeDone = true));
    });
    expect((await hook.complete(REQUEST)).message.content).toBe("one");
    expect(probeDone).toBe(false);
  });

  it("fails the request's caller when onFirstRequest throws", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    const hook = new FirstRequestHook(model, () => {
      throw new Error("probe would not start");
    });
    await expect(hook.complete(REQUEST)).rejects.toThrow("probe would not start");
  });
});
