/**
 * Issue 41 item 11 through the built CLI: `agent runs` on a terminal names its columns; piped, it
 * prints the rows only, as scripts read them.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { PTY_REASON, PtySession, isPtyAvailable, terminalScreenLines } from "../support/pty.js";
import { CLI_PATH, runCli, serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

describe.skipIf(!isPtyAvailable())(`agent runs ${PTY_REASON}`, () => {
  it("has a header on a terminal and none when piped", async () => {
    e2e.server.script(chatTextReply("ok"));
    expect((await e2e.agent(["--prompt", "Say ok"])).exitCode).toBe(0);

    const piped = await runCli(["runs", "--workspace", e2e.dir.workspace], {
      env: serverEnv(e2e.server.baseURL),
    });
    expect(piped.stdout).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{8} {2}\S+Z {2}completed {3}Say ok\n$/u);

    const session = PtySession.start(
      [process.execPath, CLI_PATH, "runs", "--workspace", e2e.dir.workspace],
      { env: serverEnv(e2e.server.baseURL) },
    );
    const { exitCode, output } = await session.exited;
    expect(exitCode).toBe(0);
    const rows = terminalScreenLines(output).filter((row) => row.trim() !== "");
    expect(rows[0]).toBe("ID                         STARTED (UTC)         STATUS      TASK");
    expect(rows[1]).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{8} {2}\S+Z {2}completed {3}Say ok$/u);
  });
});
