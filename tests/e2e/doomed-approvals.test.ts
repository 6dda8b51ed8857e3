/**
 * Issue 41 item 10 through the built CLI: an approval that cannot succeed is never asked. An
 * edit_file whose old_string occurs four times fails edit_ambiguous before the [y/N]; the file is
 * as it was.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, PtySession, terminalScreenLines } from "../support/pty.js";
import { serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

describe.skipIf(!isPtyAvailable())(`an edit that cannot apply ${PTY_REASON}`, () => {
  it("fails edit_ambiguous before anyone is asked", async () => {
    const file = join(e2e.dir.workspace, "list.txt");
    await writeFile(file, "item\nitem\nitem\nitem\n");
    e2e.server.script(
      chatToolCallsReply([
        {
          id: "call_edit",
          name: "edit_file",
          arguments: { path: "list.txt", old_string: "item", new_string: "thing" },
        },
      ]),
      chatTextReply("It was ambiguous."),
    );
    const session = PtySession.start(e2e.argv(["--prompt", "Rename the item"]), {
      env: serverEnv(e2e.server.baseURL),
    });
    // Were it asked (as before), answer no at once rather than wait on a prompt to time out.
    const asked = session.waitForOutput("[y/N]").then(
      () => {
        session.type("n\r");
        return true;
      },
      () => false,
    );
    const { exitCode, output } = await session.exited;

    expect(await asked).toBe(false);

    expect(exitCode).toBe(0);
    const screen = terminalScreenLines(output);
    expect(screen.filter((row) => row.includes("[y/N]"))).toEqual([]);
    expect(toolResults(e2e.server.requests[1]).call_edit).toBe(
      "Error [edit_ambiguous]: old_string occurs 4 times in list.txt; add surrounding lines to make it unique, or set replace_all to true to replace every occurrence",
    );
    expect(await readFile(file, "utf8")).toBe("item\nitem\nitem\nitem\n");
  });
});
