/**
 * Saved outputs are capped (issue 28, item 8): each file keeps its head and its tail with the
 * middle cut and marked, the folder keeps a byte budget besides the count, and the tool result
 * says when the saved file was cut.
 */
import { readdirSync, utimesSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspaceOutputStore } from "../../../src/adapters/filesystem/index.js";
import {
  OUTPUTS_BUDGET_BYTES,
  SAVED_OUTPUT_CAP_BYTES,
} from "../../../src/adapters/filesystem/output-files.js";
import { cappedWriter } from "../../../src/adapters/filesystem/capped-spill-file.js";
import { CapturedOutput } from "../../../src/adapters/process/captured-output.js";
import { truncationNotice } from "../../../src/features/shell-tool.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

describe("cappedWriter", () => {
  function written(cap: number, pieces: readonly string[]): { text: string; cut: number } {
    const chunks: Buffer[] = [];
    const writer = cappedWriter((bytes) => chunks.push(Buffer.from(bytes)), cap);
    for (const piece of pieces) writer.write(Buffer.from(piece));
    const cut = writer.finish();
    return { text: Buffer.concat(chunks).toString("utf8"), cut };
  }

  it("writes everything, in order, up to the cap", () => {
    expect(written(10, ["abc", "defg", "hij"])).toEqual({ text: "abcdefghij", cut: 0 });
  });

  it("past the cap keeps the first and last halves and marks the cut, however it was written", () => {
    const mark =
      "\n[agent-harness: 16 bytes cut here; a saved output keeps its first 5 and its last 5 bytes]\n";
    const whole = "abcdefghijklmnopqrstuvwxyz";
    expect(written(10, [whole])).toEqual({ text: `abcde${mark}vwxyz`, cut: 16 });
    expect(
      written(
        10,
        Array.from(whole, (letter) => letter),
      ),
    ).toEqual({ text: `abcde${mark}vwxyz`, cut: 16 });
    expect(written(10, ["abcdefg", "hijklmnopqr", "stu", "vwxyz"])).toEqual({
      text: `abcde${mark}vwxyz`,
      cut: 16,
    });
  });
});

describe("the output store's limits", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  it("defaults: 8 MiB a saved output, 64 MiB for the folder", () => {
    expect(SAVED_OUTPUT_CAP_BYTES).toBe(8 * 1024 * 1024);
    expect(OUTPUTS_BUDGET_BYTES).toBe(64 * 1024 * 1024);
  });

  it("a command's huge output is saved cut, and the result says so", async () => {
    const store = WorkspaceOutputStore.open(temp.workspace, {
      savedOutputCapBytes: 100,
      outputsBudgetBytes: 1000,
    });
    const captured = new CapturedOutput(20, store.spillFor("call_big"));
    const lines = Array.from({ length: 100 }, (_, index) => `line ${String(index)}\n`).join("");
    captured.append(Buffer.from(lines));
    const { omitted } = captured.result();

    expect(omitted?.savedCutBytes).toBe(lines.length - 100);
    expect(truncationNotice(omitted ?? { bytes: 0, lines: 0, tail: "", totalBytes: 0 })).toBe(
      `[output truncated: ${String(omitted?.bytes)} bytes (${String(omitted?.lines)} lines) left out; the output (${String(lines.length)} bytes) is in .agent/outputs/call_big.log without its middle ${String(lines.length - 100)} bytes, over the harness's cap on a saved output]`,
    );
    const saved = await readFile(join(temp.workspace, ".agent/outputs/call_big.log"), "utf8");
    expect(saved).toBe(
      `${lines.slice(0, 50)}\n[agent-harness: ${String(lines.length - 100)} bytes cut here; a saved output keeps its first 50 and its last 50 bytes]\n${lines.slice(-50)}`,
    );
  });

  it("removes older saved outputs, oldest first, to keep the folder under its budget", () => {
    const store = WorkspaceOutputStore.open(temp.workspace, {
      savedOutputCapBytes: 100,
      outputsBudgetBytes: 350,
    });
    const outputs = join(temp.workspace, ".agent/outputs");
    const base = Date.now() / 1000 - 10_000;
    for (let index = 0; index < 6; index += 1) {
      const file = store.spillFor(`call_${String(index)}`).open();
      file?.write(Buffer.alloc(100, 0x61));
      file?.close();
      utimesSync(join(outputs, `call_${String(index)}.log`), base + index, base + index);
    }
    // The budget less room for a full new one leaves 250 bytes: two older ones and the new one.
    expect(readdirSync(outputs).sort()).toEqual(["call_3.log", "call_4.log", "call_5.log"]);
  });
});
