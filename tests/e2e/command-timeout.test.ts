/**
 * `--command-timeout` through the built CLI: a real `sleep 5`, approved at the prompt, is killed
 * after the one second the flag gives, and the model reads that limit both in the shell tool's
 * description and in the timeout result.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

describe.skipIf(!isPtyAvailable() || process.platform === "win32")(
  `--command-timeout ${PTY_REASON}`,
  () => {
    it("1 kills sleep 5, and the model is told 1 s before and after", async () => {
      e2e.server.script(
        chatToolCallsReply([
          { id: "call_sleep", name: "shell", arguments: { command: "sleep 5" } },
        ]),
        chatTextReply("It was killed."),
      );
      const { exitCode, output } = await runInPty(
        e2e.argv(["--sandbox", "off", "--command-timeout", "1", "--prompt", "Sleep"]),
        { env: serverEnv(e2e.server.baseURL), prompt: "[y/N] ", answers: ["y\r"] },
      );
      expect(exitCode).toBe(0);
      // The approval shows the limit the command then runs under.
      expect(terminalScreenLines(output).join("\n")).toContain("timeoutMs=1000");
      const [first, second] = e2e.server.requests;
      const shell = first?.tools?.find((tool) => tool.function.name === "shell");
      expect(shell?.function.description).toContain(
        "the command and everything it started are killed after 1 s.",
      );
      expect(toolResults(second).call_sleep).toBe(
        "Error [shell_timeout]: Command timed out after 1 s and was killed with everything it started (the command ran)\n(no output)",
      );
    });
  },
);
