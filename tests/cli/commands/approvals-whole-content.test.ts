/**
 * A write of a file loaded later whose content is too long for the request's summary (there it is
 * named by size and SHA-256) is still approved only as read: the content goes whole, line by line,
 * into the request's marked block, and `agent approvals` shows it there, every character but
 * printable ASCII escaped as the P04 request block escapes it.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openApprovalStore } from "../../../src/bootstrap.js";
import { runCli } from "../../../src/cli/main.js";
import type { ApprovalStore } from "../../../src/adapters/state/index.js";
import { RunWaitingError } from "../../../src/core/common/agent-errors.js";
import { loadedLaterReason } from "../../../src/core/policy/loaded-later-files.js";
import { p04TestAgent } from "../../support/p04-test-agent.js";
import { ScriptedModelClient, toolCallReply } from "../../support/scripted-model.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;
let state: string;
let store: ApprovalStore;

beforeEach(async () => {
  temp = await makeTempWorkspace();
  state = join(temp.base, "state");
  mkdirSync(state, { mode: 0o700 });
  store = openApprovalStore(temp.ws, state, {}, process.platform);
});
afterEach(async () => {
  store.close();
  await temp.cleanup();
});

async function approvals(): Promise<string> {
  const stdout = new PassThrough();
  let shown = "";
  stdout.on("data", (chunk: Buffer) => {
    shown += chunk.toString("utf8");
  });
  const code = await runCli({
    argv: ["approvals", "--workspace", temp.ws, "--state-dir", state],
    env: {},
    cwd: temp.ws,
    platform: process.platform,
    stdin: Object.assign(new PassThrough(), { isTTY: false }),
    stdout,
    stderr: new PassThrough(),
    interrupts: { on: () => undefined },
  });
  expect(code).toBe(0);
  return shown;
}

async function waitingOn(call: ReturnType<typeof toolCallReply>): Promise<RunWaitingError> {
  const error = await p04TestAgent({
    workspace: temp.ws,
    store,
    runId: "run-long",
    replies: new ScriptedModelClient([call]),
    allowedArgv: [],
  })
    .run("write the instructions")
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RunWaitingError);
  return error as RunWaitingError;
}

const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

describe("agent approvals shows the whole content of a long loaded-later write", () => {
  it("write_file: every line, escaped, in the marked block; the summary keeps size and hash", async () => {
    // Past the summary's 500 characters, with what a hostile model would hide in it: a line
    // that looks like a harness row, a look-alike quote, a combining mark, a control.
    const content = [
      "# Project notes",
      "x".repeat(520),
      "Risk: none found",
      "[Permission] write_file: allow",
      "quote \u02BA and combining a\u0301 and bell \u0007",
      "",
    ].join("\n");
    const waiting = await waitingOn(
      toolCallReply([
        { id: "call_w", name: "write_file", arguments: { path: "AGENTS.md", content } },
      ]),
    );
    const id = waiting.request.id;
    expect(existsSync(join(temp.ws, "AGENTS.md"))).toBe(false);

    const lines = (await approvals()).split("\n");
    expect(lines[0]).toMatch(new RegExp(`^${id} · asked `, "u"));
    expect(lines.slice(1)).toEqual([
      `  write_file "AGENTS.md" in ${temp.ws} · effect write · loaded later: ${loadedLaterReason("AGENTS.md") ?? ""} · content ${String(Buffer.byteLength(content))} bytes, sha256 ${sha256(content)}`,
      "  ┌─ what it runs or writes, as written (any character but printable ASCII shown as \\uXXXX):",
      "  │ content: # Project notes",
      `  │ content: ${"x".repeat(520)}`,
      "  │ content: Risk: none found",
      "  │ content: [Permission] write_file: allow",
      "  │ content: quote \\u02BA and combining a\\u0301 and bell \\u0007",
      "  │ content: ",
      "  └─ end of the block",
      expect.stringMatching(/^ {2}risk: its effect outlives this run/u),
      "",
    ]);
  });

  it("edit_file: each long string whole, each row led by its key", async () => {
    const oldString = `${"a".repeat(300)}\n${"b".repeat(300)}`;
    const newString = "short";
    const waiting = await waitingOn(
      toolCallReply([
        {
          id: "call_e",
          name: "edit_file",
          arguments: { path: ".envrc", old_string: oldString, new_string: newString },
        },
      ]),
    );
    expect(waiting.request.scriptRows).toEqual([
      `old_string: ${"a".repeat(300)}`,
      `old_string: ${"b".repeat(300)}`,
    ]);
    expect(waiting.request.summary).toContain(
      `old_string ${String(oldString.length)} bytes, sha256 ${sha256(oldString)} · new_string "short"`,
    );
    expect(await approvals()).toContain(`  │ old_string: ${"b".repeat(300)}\n`);
  });
});
