/**
 * The approval prompt names the shell that will read the command: `echo hi` reads the same in
 * PowerShell and in bash. The tutorial's lines stay as they are; the shell has a line of its own.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { POWERSHELL_MISSING, POWERSHELL_TEST_ENV, PWSH } from "../support/host-executables.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { useAgentFixture } from "./agent-fixture.js";
import { serverEnv } from "./cli-process.js";

const e2e = useAgentFixture();

/** The prompt's rows for one denied `echo hi`, from its title to the line before the question. */
async function promptFor(shellFlags: readonly string[]): Promise<string[]> {
  e2e.server.script(
    chatToolCallsReply([{ id: "call_1", name: "shell", arguments: { command: "echo hi" } }]),
    chatTextReply("Fine."),
  );
  const { output } = await runInPty(
    e2e.argv([...shellFlags, "--sandbox", "off", "--prompt", "Say hi"]),
    {
      env: serverEnv(e2e.server.baseURL, { PATH: POWERSHELL_TEST_ENV.PATH ?? "" }),
      prompt: "[y/N] ",
      answers: ["n\r"],
    },
  );
  const screen = terminalScreenLines(output);
  const start = screen.indexOf("Tool call needs approval: shell");
  const question = screen.findIndex((line) => line.startsWith("Allow this call? [y/N]"));
  expect(start).toBeGreaterThan(-1);
  return screen.slice(start, question);
}

describe.skipIf(!isPtyAvailable())(`the approval prompt names the shell ${PTY_REASON}`, () => {
  it("the POSIX shell: its name on a line after the arguments", async () => {
    expect(await promptFor([])).toEqual([
      "Tool call needs approval: shell",
      "Reason: Shell execution requires approval",
      'Arguments: {"command":"echo hi"}',
      expect.stringMatching(/^Shell: (bash|sh)$/),
      expect.stringMatching(/^Runs in: /),
    ]);
  });

  it.skipIf(PWSH === undefined)(
    `PowerShell, told apart from bash${PWSH === undefined ? ` (${POWERSHELL_MISSING})` : ""}`,
    async () => {
      expect(await promptFor(["--shell", "powershell"])).toEqual([
        "Tool call needs approval: shell",
        "Reason: Shell execution requires approval",
        'Arguments: {"command":"echo hi"}',
        "Shell: PowerShell 7",
        expect.stringMatching(/^Runs in: /),
      ]);
    },
  );
});
