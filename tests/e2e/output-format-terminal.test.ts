/**
 * Issue 41: `--output-format json|stream-json` never waits on a prompt. With a terminal on stdin
 * and stderr sent to /dev/null (`agent --output-format json 'task' 2>/dev/null | jq`), a call
 * that needs approval is denied as in a piped run (chapter 4: the run waits), the JSON says why,
 * and the run ends without anyone typing.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HAS_BWRAP } from "../support/bubblewrap.js";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, PtySession, isPtyAvailable, type PtyResult } from "../support/pty.js";
import { useAgentFixture } from "./agent-fixture.js";
import { serverEnv } from "./cli-process.js";
import { countingPackageJson, npmCall, writePackageJson } from "./p04-project.js";

const e2e = useAgentFixture();

const SCRIPT_DENIAL =
  "Interactive approval is unavailable (--output-format json and stream-json never ask)";

/** The agent with stdin and stdout on a terminal and stderr to /dev/null; nothing is typed. */
async function withoutStderr(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<PtyResult> {
  const session = PtySession.start(
    ["/bin/sh", "-c", 'exec "$@" 2>/dev/null', "sh", ...e2e.argv(args)],
    { env: serverEnv(e2e.server.baseURL, env) },
  );
  // A run that waits on a hidden prompt never ends: fail it rather than hang the suite.
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      session.kill();
      reject(new Error(`the run waited for input:\n${JSON.stringify(session.output)}`));
    }, 20_000);
  });
  try {
    return await Promise.race([session.exited, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

/** The result object, the last JSON line the terminal showed. */
function resultOf(run: PtyResult): Record<string, unknown> {
  const line = run.output
    .split(/\r?\n/)
    .filter((row) => row.startsWith('{"type":"result"'))
    .at(-1);
  if (line === undefined) throw new Error(`no result object in:\n${run.output}`);
  return JSON.parse(line) as Record<string, unknown>;
}

describe.skipIf(!isPtyAvailable())(`--output-format on a terminal ${PTY_REASON}`, () => {
  it.each(["json", "stream-json"])(
    "%s: a call that needs approval is denied without asking, and the JSON says why",
    async (format) => {
      e2e.server.script(
        chatToolCallsReply([
          { id: "w1", name: "write_file", arguments: { path: "note.txt", content: "hi\n" } },
        ]),
        chatTextReply("I could not write it."),
      );
      const run = await withoutStderr(["--output-format", format, "Write a note"]);
      expect(run.exitCode).toBe(4);
      expect(run.output).not.toContain("[y/N]");
      expect(resultOf(run)).toMatchObject({
        status: "all_denied",
        exitCode: 4,
        answer: "I could not write it.",
        calls: [
          {
            callId: "w1",
            status: "denied",
            decision: { source: "terminal-approval", reason: SCRIPT_DENIAL },
          },
        ],
      });
      // Nobody was asked, so there is no time spent waiting for a person.
      expect((resultOf(run) as { calls: object[] }).calls[0]).not.toHaveProperty("waitedMs");
      expect(existsSync(join(e2e.dir.workspace, "note.txt"))).toBe(false);
    },
  );

  it.skipIf(!HAS_BWRAP)(
    "chapter 4: the run waits for `agent approve`, as a headless one does",
    async () => {
      await writePackageJson(e2e.dir.workspace, countingPackageJson("p04-json"));
      e2e.server.script(npmCall("call_a"));
      const run = await withoutStderr(
        ["--chapter", "4", "--output-format", "json", "run the tests"],
        {
          AGENT_STATE_DIR: join(e2e.dir.root, "state"),
        },
      );
      expect(run.exitCode).toBe(3);
      const result = resultOf(run);
      expect(result).toMatchObject({
        status: "waiting",
        exitCode: 3,
        calls: [{ callId: "call_a", status: "waiting" }],
        waiting: { type: "waiting", reason: "approval_required", callId: "call_a" },
      });
      // The request a script approves, without reading it out of the error's words.
      const waiting = (result as { waiting: { requestId: string } }).waiting;
      expect(waiting.requestId).toMatch(/^req_[0-9a-f]{16}$/u);
      expect((result as { error: string }).error).toContain(waiting.requestId);
      expect(existsSync(join(e2e.dir.workspace, "marker.txt"))).toBe(false);
    },
  );
});
