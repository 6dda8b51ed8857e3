/**
 * Issue 25 through the built CLI: with `--shell powershell`, what PowerShell formats as a table
 * (a `PathInfo`, a `Select-Object` of parsed JSON) reaches the model in the tool message. Before,
 * the exit-code suffix ended pwsh before the table was written, and the model read an empty success.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { POWERSHELL_MISSING, POWERSHELL_TEST_ENV, PWSH } from "../support/host-executables.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { useAgentFixture } from "./agent-fixture.js";
import { serverEnv } from "./cli-process.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();
const SKIP = PWSH === undefined || !isPtyAvailable();
const SUITE = SKIP
  ? `PowerShell tables through the CLI (skipped: ${POWERSHELL_MISSING} and util-linux script) ${PTY_REASON}`
  : "PowerShell tables through the CLI (--shell powershell)";

describe.skipIf(SKIP)(SUITE, () => {
  it("Get-Location gives the workspace; Select-Object of package.json gives name and version", async () => {
    const workspace = e2e.dir.workspace;
    await writeFile(
      join(workspace, "package.json"),
      JSON.stringify({ name: "card-project", version: "0.4.2", private: true }),
    );
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_where", name: "shell", arguments: { command: "Get-Location" } },
        {
          id: "call_package",
          name: "shell",
          arguments: {
            command: "Get-Content package.json | ConvertFrom-Json | Select-Object name, version",
          },
        },
      ]),
      chatTextReply("Seen."),
    );

    const { exitCode, output } = await runInPty(
      e2e.argv(["--shell", "powershell", "--prompt", "Where am I?"]),
      {
        env: serverEnv(e2e.server.baseURL, { PATH: POWERSHELL_TEST_ENV.PATH ?? "" }),
        prompt: "[y/N] ",
        answers: ["y\r", "y\r"],
      },
    );

    expect(exitCode).toBe(0);
    expect(toolResults(e2e.server.requests[1])).toEqual({
      // The table's closing blank line is dropped with the other trailing blanks.
      call_where: `\nPath\n----\n${workspace}\n`,
      call_package: "\nname         version\n----         -------\ncard-project 0.4.2\n",
    });
    // On a terminal the closing line ends with the context figure (issue 26).
    expect(terminalScreenLines(output)).toContainEqual(
      expect.stringMatching(/^done in 2 turns · 2 calls: 2 ran · context \d+% used$/),
    );
  }, 60_000);
});
