/**
 * Blanks at a line's end and blank lines at the output's end never reach the model: a table
 * padded to a wide terminal is text, not 45 KB of spaces, and the output cap counts what is left.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty } from "../support/pty.js";
import { serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

/** Runs one approved shell command on the host and returns the result the model read. */
async function resultOf(command: string): Promise<string> {
  e2e.server.script(
    chatToolCallsReply([{ id: "call_1", name: "shell", arguments: { command } }]),
    chatTextReply("Done."),
  );
  const run = await runInPty(e2e.argv(["--sandbox", "off", "--prompt", "Run it"]), {
    env: serverEnv(e2e.server.baseURL),
    prompt: "[y/N] ",
    answers: ["y\r"],
  });
  expect(run.exitCode).toBe(0);
  return toolResults(e2e.server.requests[1]).call_1 ?? "";
}

describe.skipIf(!isPtyAvailable())(`trailing blanks in a command's output ${PTY_REASON}`, () => {
  it("drops blanks at each line's end and blank lines at the end", async () => {
    const result = await resultOf(
      "printf 'name   \\nvalue\\t \\r\\n\\n  indented  x\\n\\n \\n\\n'",
    );
    expect(result).toBe("name\nvalue\n\n  indented  x\n");
  });

  it("does the same on stderr, where an empty line was only its mark", async () => {
    const result = await resultOf("{ printf 'oops   \\n  \\n'; printf 'again\\t\\n\\n \\n'; } >&2");
    expect(result).toBe("[stderr] oops\n\n[stderr] again\n");
  });

  it("caps what is left: 2,000 lines padded to 200 columns (400 KB) arrive whole", async () => {
    const result = await resultOf(
      "for i in $(seq 1 2000); do printf 'line %s%200s\\n' $i ''; done",
    );
    const lines = Array.from({ length: 2000 }, (_, index) => `line ${index + 1}\n`).join("");
    expect(result).toBe(lines);
  });
});
