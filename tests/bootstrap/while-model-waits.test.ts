import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WhileModelWaits } from "../../src/bootstrap/model/while-model-waits.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../src/core/ports/model.js";
import { textReply } from "../support/scripted-model.js";

const REQUEST: ModelRequest = { messages: [{ role: "user", content: "hi" }], tools: [] };

/** A model whose replies the test hands out, one per request. */
function heldModel(): { client: ModelClient; answer: (text: string) => void; asked: () => number } {
  const pending: ((reply: ModelReply) => void)[] = [];
  let asked = 0;
  return {
    client: {
      complete: () => {
        asked += 1;
        return new Promise((resolve) => pending.push(resolve));
      },
    },
    answer: (text) => pending.shift()?.(textReply(text)),
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
    await vi.advanceTimersByTimeAsync(49);
    expect(started).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toBe(1);
    model.answer("one");
    expect((await first).message.content).toBe("one");

    // Called at most once, however long later requests wait.
    const second = hook.complete(REQUEST);
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
    await vi.advanceTimersByTimeAsync(10);
    model.answer("one");
    expect((await first).message.content).toBe("one");
    await vi.advanceTimersByTimeAsync(500);
    expect(started).toBe(0);

    const second = hook.complete(REQUEST);
    await vi.advanceTimersByTimeAsync(50);
    expect(started).toBe(1);
    model.answer("two");
    await second;
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
