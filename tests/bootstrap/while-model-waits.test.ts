import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WhileModelWaits } from "../../src/bootstrap/model/while-model-waits.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../src/core/ports/model.js";
import { textReply } from "../support/scripted-model.js";

const REQUEST: ModelRequest = { messages: [{ role: "user", content: "hi" }], tools: [] };

/**
 * A model whose replies the test hands out, one per request; `sent` says the oldest open request
 * has been written (as the OpenAI client's fetch does once the body is with the socket).
 */
function heldModel(): {
  client: ModelClient;
  answer: (text: string) => void;
  sent: () => void;
  replyStarted: () => void;
  asked: () => number;
} {
  const pending: { request: ModelRequest; resolve: (reply: ModelReply) => void }[] = [];
  let asked = 0;
  return {
    client: {
      complete: (request) => {
        asked += 1;
        return new Promise((resolve) => pending.push({ request, resolve }));
      },
    },
    answer: (text) => pending.shift()?.resolve(textReply(text)),
    sent: () => pending[0]?.request.onSent?.(),
    replyStarted: () => pending[0]?.request.onReplyStarted?.(),
    asked: () => asked,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("WhileModelWaits", () => {
  it("starts the work once a request has waited its time, while the request is still open", async () => {
    vi.useFakeTimers();
    const model = heldModel();
    let started = 0;
    const hook = new WhileModelWaits(model.client, () => (started += 1), 50);

    const first = hook.complete(REQUEST);
    expect(model.asked()).toBe(1);
    model.sent();
    await vi.advanceTimersByTimeAsync(49);
    expect(started).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toBe(1);
    model.answer("one");
    expect((await first).message.content).toBe("one");

    // Called at most once, however long later requests wait.
    const second = hook.complete(REQUEST);
    model.sent();
    await vi.advanceTimersByTimeAsync(500);
    model.answer("two");
    await second;
    expect(started).toBe(1);
  });

  it("a reply that comes sooner starts nothing, and holds nothing: the next slow one does", async () => {
    vi.useFakeTimers();
    const model = heldModel();
    let started = 0;
    const hook = new WhileModelWaits(model.client, () => (started += 1), 50);

    const first = hook.complete(REQUEST);
    model.sent();
    await vi.advanceTimersByTimeAsync(10);
    model.answer("one");
    expect((await first).message.content).toBe("one");
    await vi.advanceTimersByTimeAsync(500);
    expect(started).toBe(0);

    const second = hook.complete(REQUEST);
    model.sent();
    await vi.advanceTimersByTimeAsync(50);
    expect(started).toBe(1);
    model.answer("two");
    await second;
  });

  it("counts the wait from when the request has been sent, not from when it was made", async () => {
    vi.useFakeTimers();
    const model = heldModel();
    let started = 0;
    const hook = new WhileModelWaits(model.client, () => (started += 1), 50);
    let toldSent = 0;

    // A resume's first request: its whole history encoded and written before it leaves.
    const first = hook.complete({ ...REQUEST, onSent: () => (toldSent += 1) });
    await vi.advanceTimersByTimeAsync(500);
    expect(started).toBe(0);
    model.sent();
    expect(toldSent).toBe(1);
    await vi.advanceTimersByTimeAsync(49);
    expect(started).toBe(0);
    // A retry sends again; the wait still counts from the first send.
    model.sent();
    await vi.advanceTimersByTimeAsync(1);
    expect([started, toldSent]).toEqual([1, 2]);
    model.answer("one");
    await first;
  });

  it("a reply that has begun to stream before the wait is over starts nothing", async () => {
    vi.useFakeTimers();
    const model = heldModel();
    let started = 0;
    let toldStarted = 0;
    const hook = new WhileModelWaits(model.client, () => (started += 1), 50);
    const first = hook.complete({ ...REQUEST, onReplyStarted: () => (toldStarted += 1) });
    model.sent();
    await vi.advanceTimersByTimeAsync(20);
    model.replyStarted();
    // Its text takes its time to arrive: the work must not land between its pieces.
    await vi.advanceTimersByTimeAsync(500);
    model.answer("streamed");
    await first;
    expect([started, toldStarted]).toEqual([0, 1]);
  });

  it("a client that never says it has sent starts nothing", async () => {
    vi.useFakeTimers();
    const model = heldModel();
    let started = 0;
    const hook = new WhileModelWaits(model.client, () => (started += 1), 50);
    const first = hook.complete(REQUEST);
    await vi.advanceTimersByTimeAsync(5_000);
    model.answer("one");
    await first;
    expect(started).toBe(0);
  });

  it("a failed request clears its timer too", async () => {
    vi.useFakeTimers();
    let started = 0;
    const failing: ModelClient = { complete: () => Promise.reject(new Error("refused")) };
    const hook = new WhileModelWaits(failing, () => (started += 1), 50);
    await expect(hook.complete(REQUEST)).rejects.toThrow("refused");
    await vi.advanceTimersByTimeAsync(500);
    expect(started).toBe(0);
  });
});

describe("afterThisTurn", () => {
  it("runs its work before the loop waits for the next I/O, not when that I/O arrives", () => {
    // In a fresh process whose only pending I/O is a child that answers later, as the model does
    // with `--sandbox off` (no probe whose output would wake the loop first).
    const module = fileURLToPath(
      new URL("../../src/bootstrap/model/while-model-waits.ts", import.meta.url),
    );
    const script = `
      import { spawn } from "node:child_process";
      import { afterThisTurn } from ${JSON.stringify(module)};
      const order = [];
      const model = spawn(process.execPath, ["-e", "setTimeout(() => process.stdout.write('r'), 600)"]);
      model.stdout.on("data", () => order.push("reply"));
      model.on("close", () => console.log(JSON.stringify(order)));
      setTimeout(() => afterThisTurn(() => order.push("work")), 20);
    `;
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { encoding: "utf8", timeout: 20_000 },
    );
    expect(child.stderr).toBe("");
    expect(JSON.parse(child.stdout)).toEqual(["work", "reply"]);
  });
});
