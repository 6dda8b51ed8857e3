import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { UNSETTLED_MESSAGE, failIfLeftUnsettled } from "../../src/cli/unsettled-exit.js";

function fakeProcess() {
  return Object.assign(new EventEmitter(), { exitCode: undefined as number | undefined });
}

function captured() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe("failIfLeftUnsettled", () => {
  it("a loop that drains before the command finished ends with status 1, said on stderr", () => {
    const process = fakeProcess();
    const stderr = captured();
    failIfLeftUnsettled(process, stderr.stream, () => false);
    process.emit("beforeExit");
    expect(process.exitCode).toBe(1);
    expect(stderr.text()).toBe(UNSETTLED_MESSAGE);
  });

  it("after the command finished its own exit code stands and nothing is said", () => {
    const process = fakeProcess();
    process.exitCode = 0;
    const stderr = captured();
    failIfLeftUnsettled(process, stderr.stream, () => true);
    process.emit("beforeExit");
    expect(process.exitCode).toBe(0);
    expect(stderr.text()).toBe("");
  });
});
