/**
 * `--sandbox off`: a command must not outlive a harness killed with `kill -9` (issue 28). The
 * command's whole process group, a background subshell included, is killed by its guard.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty } from "../support/pty.js";
import { useAgentFixture } from "./agent-fixture.js";
import { serverEnv } from "./cli-process.js";

const e2e = useAgentFixture();

/**
 * Still running: a zombie has exited and only waits to be reaped by whatever adopted it (on a
 * loaded machine that can take a while), so it counts as dead.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // "pid (comm) S …": the state follows the last ")" (comm may hold spaces or parentheses).
    const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Polls `condition` every 20 ms until it holds or `ms` pass; the answer is the last look. */
async function eventually(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

describe.skipIf(!isPtyAvailable())(`--sandbox off and kill -9 of the harness ${PTY_REASON}`, () => {
  it("kills the running command and what it left in the background", async () => {
    const { workspace } = e2e.dir;
    // The shell's parent is the harness itself; the pids are written last, all at once.
    const command =
      '(sleep 60; touch survived) & echo "$PPID $$ $!" > pids.tmp; mv pids.tmp pids; sleep 60';
    e2e.server.script(
      chatToolCallsReply([{ id: "call_long", name: "shell", arguments: { command } }]),
      chatTextReply("Done."),
    );
    const run = runInPty(e2e.argv(["--sandbox", "off", "--prompt", "Wait"]), {
      env: serverEnv(e2e.server.baseURL),
      prompt: "[y/N] ",
      answers: ["y\r"],
    });
    const pids = join(workspace, "pids");
    expect(await eventually(() => existsSync(pids), 20_000)).toBe(true);
    const [harness, root, background] = readFileSync(pids, "utf8").trim().split(" ").map(Number);
    expect([harness, root, background].every((pid) => pid !== undefined && alive(pid))).toBe(true);

    process.kill(harness ?? 0, "SIGKILL");
    await run;

    expect(await eventually(() => !alive(root ?? 0) && !alive(background ?? 0), 10_000)).toBe(true);
  });
});
