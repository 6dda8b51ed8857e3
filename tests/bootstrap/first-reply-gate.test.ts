import { describe, expect, it } from "vitest";
import { FirstReplyGate } from "../../src/bootstrap/model/first-reply-gate.js";
import { RunCancelledError } from "../../src/core/common/agent-errors.js";
import type { ModelRequest } from "../../src/core/ports/model.js";
import { ScriptedModelClient, textReply } from "../support/scripted-model.js";
import { settlesSoon } from "../support/settles-soon.js";

const REQUEST: ModelRequest = { messages: [{ role: "user", content: "hi" }], tools: [] };

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe("FirstReplyGate", () => {
  it("sends the first request at once but hands its reply on only once ready settles", async () => {
    const model = new ScriptedModelClient([textReply("one"), textReply("two")]);
    const ready = deferred();
    const gate = new FirstReplyGate(model, ready.promise);

    const first = gate.complete(REQUEST);
    expect(await settlesSoon(first)).toBe(false);
    expect(model.requests).toHaveLength(1);

    ready.resolve();
    expect((await first).message.content).toBe("one");
    expect((await gate.complete(REQUEST)).message.content).toBe("two");
  });

  it("calls onFirstRequest once, on the next turn after the first request was handed to the model", async () => {
    const model = new ScriptedModelClient([textReply("one"), textReply("two")]);
    const ready = deferred();
    const requestsSeen: number[] = [];
    const gate = new FirstReplyGate(model, ready.promise, () => {
      requestsSeen.push(model.requests.length);
    });

    const first = gate.complete(REQUEST);
    expect(requestsSeen).toEqual([]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(requestsSeen).toEqual([1]);
    ready.resolve();
    await first;
    await gate.complete(REQUEST);
    expect(requestsSeen).toEqual([1]);
  });

  it("fails the request's caller when onFirstRequest throws", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    const gate = new FirstReplyGate(model, Promise.resolve(), () => {
      throw new Error("probe would not start");
    });
    await expect(gate.complete(REQUEST)).rejects.toThrow("probe would not start");
  });

  it("passes a failed start-up on instead of the reply", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    const gate = new FirstReplyGate(model, Promise.reject(new Error("probe crashed")));
    await expect(gate.complete(REQUEST)).rejects.toThrow("probe crashed");
  });

  it("stops waiting when the run is cancelled", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    const cancel = new AbortController();
    const gate = new FirstReplyGate(model, new Promise(() => undefined));

    const first = gate.complete({ ...REQUEST, signal: cancel.signal });
    cancel.abort();
    await expect(first).rejects.toBeInstanceOf(RunCancelledError);
  });
});
