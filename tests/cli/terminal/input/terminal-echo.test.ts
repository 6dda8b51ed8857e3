import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { sttyEcho, withoutEcho } from "../../../../src/cli/terminal/input/terminal-echo.js";

const TTY = { isTTY: true, fd: 0 };

/** A terminal echo whose stty calls are recorded, and the process that stops and continues. */
function recorded(): { calls: string[]; continues: EventEmitter } {
  return { calls: [], continues: new EventEmitter() };
}

describe("the terminal's echo during a turn", () => {
  it("is off while the turn runs, off again after each continue, and on after the turn", async () => {
    const { calls, continues } = recorded();
    const echo = sttyEcho(TTY, "linux", continues, (setting) => calls.push(setting));
    await withoutEcho(echo, () => {
      continues.emit("SIGCONT");
      calls.push("turn");
      return Promise.resolve();
    });
    continues.emit("SIGCONT");
    expect(calls).toEqual(["-echo", "-echo", "turn", "echo"]);
    expect(continues.listenerCount("SIGCONT")).toBe(0);
  });

  it("is on again after a turn that throws, and the error goes on", async () => {
    const { calls, continues } = recorded();
    const echo = sttyEcho(TTY, "linux", continues, (setting) => calls.push(setting));
    await expect(withoutEcho(echo, () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
    expect(calls).toEqual(["-echo", "echo"]);
  });

  it.each([
    ["a pipe", { isTTY: false, fd: 0 }, "linux"],
    ["a stream with no descriptor", { isTTY: true }, "linux"],
    ["Windows", TTY, "win32"],
  ] as const)("is not touched on %s", (_, input, platform) => {
    const { calls, continues } = recorded();
    expect(sttyEcho(input, platform, continues, (setting) => calls.push(setting))).toBeUndefined();
  });
});
