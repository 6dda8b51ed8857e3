/**
 * Honest outcomes through the built CLI in a real terminal: a long output keeps its ends and is
 * saved whole where read_file finds it, stderr is marked with the exit code stated, and the API
 * key a host command digs out of /proc reaches the model as [redacted].
 */
import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { API_KEY, serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

async function agentInPty(args: readonly string[], answers: readonly string[]) {
  const { exitCode, output } = await runInPty(e2e.argv(args), {
    env: serverEnv(e2e.server.baseURL),
    prompt: "[y/N] ",
    answers,
  });
  return { exitCode, screen: terminalScreenLines(output) };
}

const PART = 30_000;

describe.skipIf(!isPtyAvailable())(`honest outcomes through the CLI ${PTY_REASON}`, () => {
  it("seq 1 200000: first and last lines, a count of what was left out, a path read_file reads whole", async () => {
    const path = ".agent/outputs/call_seq.log";
    const reads = Array.from({ length: Math.ceil(200_000 / PART) }, (_, index) => ({
      id: `call_read_${index}`,
      name: "read_file",
      arguments: { path, offset: index * PART + 1, limit: PART },
    }));
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_seq", name: "shell", arguments: { command: "seq 1 200000" } },
      ]),
      chatToolCallsReply(reads),
      chatTextReply("Read it all."),
    );

    const run = await agentInPty(["--prompt", "Count"], ["y\r"]);

    expect(run.exitCode).toBe(0);
    const message = toolResults(e2e.server.requests[1]).call_seq ?? "";
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(50 * 1024);
    expect(message.startsWith("1\n2\n3\n")).toBe(true);
    expect(message.endsWith("199999\n200000\n")).toBe(true);
    const notice =
      /\n\[output truncated: (\d+) bytes \((\d+) lines\) left out; the whole output \((\d+) bytes\) is in (\S+)\]\n/.exec(
        message,
      );
    expect(notice?.[4]).toBe(path);
    expect(Number(notice?.[3])).toBe(1_288_895);
    const kept = message
      .replace(notice?.[0] ?? "", "\n")
      .split("\n")
      .filter((line) => line !== "");
    expect(kept.length + Number(notice?.[2])).toBe(200_000);

    const results = toolResults(e2e.server.requests[2]);
    const lines = reads.flatMap(({ id }) =>
      (results[id] ?? "")
        .replace(/\n\[lines \d+-\d+ of 200000\]$/, "")
        .split("\n")
        .filter(Boolean),
    );
    expect(lines).toHaveLength(200_000);
    expect(lines.every((line, index) => line === String(index + 1))).toBe(true);
    expect(await readFile(join(e2e.dir.workspace, ".agent/.gitignore"), "utf8")).toContain("*");
    expect(run.screen).toContain("done in 3 turns · 8 calls: 8 ran · context 32% used");
  }, 60_000);

  it("echo out; echo err >&2; exit 3: both lines, stderr marked, the exit code stated", async () => {
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_x", name: "shell", arguments: { command: "echo out; echo err >&2; exit 3" } },
      ]),
      chatTextReply("It failed."),
    );
    const run = await agentInPty(["--prompt", "Try"], ["y\r"]);
    expect(run.exitCode).toBe(0);
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_x:
        "Error [shell_failed]: bash exited with code 3 (the command ran)\nout\n[stderr] err\n",
    });
    expect(run.screen).toContain("done in 2 turns · 1 call: 1 failed · context 0% used");
  });

  it("--sandbox off: a command that swaps .agent for a link refuses the next one, which never runs", async () => {
    const outside = e2e.dir.outside;
    e2e.server.script(
      chatToolCallsReply([
        {
          id: "call_swap",
          name: "shell",
          arguments: { command: `mv .agent moved && ln -s '${outside}' .agent` },
        },
        { id: "call_next", name: "shell", arguments: { command: "touch ran; seq 1 100000" } },
      ]),
      chatTextReply("Refused."),
    );
    const run = await agentInPty(["--sandbox", "off", "--prompt", "Swap"], ["y\r", "y\r"]);
    expect(run.exitCode).toBe(0);
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_swap: "(no output)",
      call_next:
        "Error [shell_start_failed]: The harness saves long command outputs in .agent/outputs, " +
        "and .agent was replaced or moved since the harness made it; no command runs until the " +
        "person removes or repairs .agent, which the harness makes again when it is gone " +
        "(the command did not run)",
    });
    expect(existsSync(join(e2e.dir.workspace, "ran"))).toBe(false);
    expect(await readdir(outside)).toEqual([]);
  });

  it("--sandbox off: the key a command reads from /proc/$PPID/environ reaches the model as [redacted]", async () => {
    const command = "tr '\\0' '\\n' < /proc/$PPID/environ | grep '^OPENAI_API_KEY='";
    e2e.server.script(
      chatToolCallsReply([{ id: "call_key", name: "shell", arguments: { command } }]),
      chatTextReply("No key for me."),
    );
    const run = await agentInPty(["--sandbox", "off", "--prompt", "Steal"], ["y\r"]);
    expect(run.exitCode).toBe(0);
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_key: "OPENAI_API_KEY=[redacted]\n",
    });
    expect(JSON.stringify(e2e.server.requests)).not.toContain(API_KEY);
  });

  it("--sandbox off: the key's base64 and hex forms reach the model as [redacted] too", async () => {
    const key = "tr '\\0' '\\n' < /proc/$PPID/environ | grep '^OPENAI_API_KEY=' | cut -d= -f2-";
    const command = `${key} | tr -d '\\n' | base64 -w0; echo; ${key} | tr -d '\\n' | od -An -tx1 | tr -d ' \\n'; echo; echo "k=$(${key} | tr -d '\\n')" | base64 -w0 | tr '+/' '-_'; echo`;
    e2e.server.script(
      chatToolCallsReply([{ id: "call_key", name: "shell", arguments: { command } }]),
      chatTextReply("No key for me."),
    );
    const run = await agentInPty(["--sandbox", "off", "--prompt", "Steal"], ["y\r"]);
    expect(run.exitCode).toBe(0);
    // Base64 at the start of a text, hex, and URL-safe base64 two bytes into one (`k=`): only
    // the characters that also hold a neighbour's bits are left.
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_key: "[redacted]M=\n[redacted]\naz1[redacted]wo=\n",
    });
    const results = JSON.stringify(toolResults(e2e.server.requests[1]));
    for (const form of [
      Buffer.from(API_KEY).toString("base64").slice(0, 20),
      Buffer.from(API_KEY).toString("hex"),
      Buffer.from(`k=${API_KEY}\n`).toString("base64url").slice(4, 24),
    ]) {
      expect(results).not.toContain(form);
    }
    expect(JSON.stringify(e2e.server.requests)).not.toContain(API_KEY);
  });
});
