/**
 * PowerShell's stderr lines arrive where they were written among its stdout lines: two pipes let
 * a fast writer's errors all land after its output. Through the built CLI with `--shell powershell`.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { POWERSHELL_MISSING, POWERSHELL_TEST_ENV, PWSH } from "../support/host-executables.js";
import { PTY_REASON, isPtyAvailable, runInPty } from "../support/pty.js";
import { useAgentFixture } from "./agent-fixture.js";
import { serverEnv } from "./cli-process.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();
const SKIP = PWSH === undefined || !isPtyAvailable();

describe.skipIf(SKIP)(
  SKIP
    ? `PowerShell stderr in order (skipped: ${POWERSHELL_MISSING}) ${PTY_REASON}`
    : "PowerShell stderr in order (--shell powershell)",
  () => {
    it("Write-Output, Write-Error and [Console]::Error alternate in the result as written", async () => {
      const command =
        'foreach ($i in 1..3) { Write-Output "out $i"; [Console]::Error.WriteLine("console $i"); Write-Error "error $i" }';
      e2e.server.script(
        chatToolCallsReply([{ id: "call_1", name: "shell", arguments: { command } }]),
        chatTextReply("Seen."),
      );
      const { exitCode } = await runInPty(
        e2e.argv(["--shell", "powershell", "--sandbox", "off", "--prompt", "Alternate"]),
        {
          env: serverEnv(e2e.server.baseURL, { PATH: POWERSHELL_TEST_ENV.PATH ?? "" }),
          prompt: "[y/N] ",
          answers: ["y\r"],
        },
      );
      expect(exitCode).toBe(0);
      const lines = [1, 2, 3].flatMap((i) => [
        `out ${i}`,
        `[stderr] console ${i}`,
        `[stderr] Write-Error: error ${i}`,
      ]);
      expect(toolResults(e2e.server.requests[1])).toEqual({
        call_1: `Error [shell_failed]: PowerShell exited with code 1 (the command ran)\n${lines.join("\n")}\n`,
      });
    }, 60_000);
  },
);
