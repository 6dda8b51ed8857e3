/**
 * The harness's own files (`--audit-log`, `--record`, `--replay`) through the real CLI: opened once,
 * never through a link, never a FIFO; a command that swaps their names mid-run redirects nothing and
 * blocks nothing; inside the workspace the file tools refuse them and the sandbox keeps them.
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync } from "node:fs";
import { link, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { baseEnv, linesOf, runCli, serverEnv, stderrLines } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";
import { BWRAP_REASON, HAS_BWRAP } from "../support/bubblewrap.js";

const e2e = useAgentFixture();
// On PATH, where the agent looks for it: with bwrap on disk but not on PATH the command runs on
// the host, and the sandbox case has nothing to test.

interface AuditLine {
  readonly callId: string;
  readonly behavior: string;
  readonly source: string;
}

/** The decision lines (each call's outcome line, without `behavior`, is left out). */
async function auditLines(path: string): Promise<AuditLine[]> {
  return linesOf(await readFile(path, "utf8"))
    .map((line) => JSON.parse(line) as Partial<AuditLine>)
    .filter((line): line is AuditLine => line.behavior !== undefined);
}

function shellCall(id: string, command: string) {
  return chatToolCallsReply([{ id, name: "shell", arguments: { command } }]);
}

describe.skipIf(!isPtyAvailable() || process.platform !== "linux")(
  `a command that swaps the harness's files mid-run ${PTY_REASON}`,
  () => {
    it.each([
      ["a FIFO for the audit log, a link for the recording", "audit.jsonl", "session.jsonl"],
      ["a link for the audit log, a FIFO for the recording", "session.jsonl", "audit.jsonl"],
    ])("on the host: %s redirect and block nothing", async (_label, fifoName, linkName) => {
      const outside = e2e.dir.outside;
      const log = join(outside, "audit.jsonl");
      const recording = join(outside, "session.jsonl");
      const victim = join(outside, "victim.sh");
      await writeFile(victim, "echo safe\n");
      const moved = (name: string) => name.replace(".jsonl", ".moved");
      const swap = [
        `mv ../outside/${fifoName} ../outside/${moved(fifoName)}`,
        `mkfifo ../outside/${fifoName}`,
        `mv ../outside/${linkName} ../outside/${moved(linkName)}`,
        `ln -s victim.sh ../outside/${linkName}`,
        "echo swapped",
      ].join(" && ");
      e2e.server.script(
        shellCall("call_swap", swap),
        shellCall("call_after", "echo after"),
        chatTextReply("Finished."),
      );

      const run = await runInPty(
        e2e.argv([
          "--sandbox",
          "off",
          "--audit-log",
          log,
          "--record",
          recording,
          "--prompt",
          "Swap the logs",
        ]),
        { env: serverEnv(e2e.server.baseURL), prompt: "[y/N] ", answers: ["y\r", "y\r"] },
      );

      expect(run.exitCode).toBe(0);
      expect(terminalScreenLines(run.output)).toContain("  Finished.");
      expect(toolResults(e2e.server.requests[2])).toEqual({
        call_swap: "swapped\n",
        call_after: "after\n",
      });
      // The names now are a FIFO and a link; neither received anything.
      expect(lstatSync(join(outside, fifoName)).isFIFO()).toBe(true);
      expect(lstatSync(join(outside, linkName)).isSymbolicLink()).toBe(true);
      expect(await readFile(victim, "utf8")).toBe("echo safe\n");
      // Every line went to the files opened at start, before and after the swap.
      expect(
        (await auditLines(join(outside, "audit.moved"))).map((line) => [
          line.callId,
          line.behavior,
        ]),
      ).toEqual([
        ["call_swap", "allow"],
        ["call_after", "allow"],
      ]);
      expect(linesOf(await readFile(join(outside, "session.moved"), "utf8"))).toHaveLength(3);
    });

    it.skipIf(!HAS_BWRAP)(
      `in the sandbox: an audit log inside the workspace cannot be appended to, moved or replaced ${BWRAP_REASON}`,
      async () => {
        const log = join(e2e.dir.workspace, "audit.jsonl");
        const attack = [
          "{ echo forged >> audit.jsonl; } 2>/dev/null || echo append-refused",
          "mv audit.jsonl moved 2>/dev/null || echo move-refused",
          "{ rm -f audit.jsonl && ln -s ../outside/victim audit.jsonl; } 2>/dev/null || echo swap-refused",
        ].join("; ");
        e2e.server.script(
          shellCall("call_attack", attack),
          shellCall("call_after", "echo after"),
          chatTextReply("Finished."),
        );

        const run = await runInPty(
          e2e.argv(["--sandbox", "required", "--audit-log", log, "--prompt", "Attack the log"]),
          { env: serverEnv(e2e.server.baseURL), prompt: "[y/N] ", answers: ["y\r", "y\r"] },
        );

        expect(run.exitCode).toBe(0);
        expect(toolResults(e2e.server.requests[2])).toEqual({
          call_attack: "append-refused\nmove-refused\nswap-refused\n",
          call_after: "after\n",
        });
        expect(lstatSync(log).isFile()).toBe(true);
        expect(existsSync(join(e2e.dir.outside, "victim"))).toBe(false);
        const lines = await auditLines(log);
        expect(lines.map((line) => [line.callId, line.behavior])).toEqual([
          ["call_attack", "allow"],
          ["call_after", "allow"],
        ]);
      },
    );
  },
);

describe("a harness file that is not a regular file is refused at start, exit 2", () => {
  it("a symbolic link as --audit-log or --record: nothing written through it", async () => {
    const victim = join(e2e.dir.outside, "victim.sh");
    await writeFile(victim, "echo safe\n");
    const link = join(e2e.dir.root, "link.jsonl");
    await symlink(victim, link);
    const dangling = join(e2e.dir.root, "dangling.jsonl");
    await symlink(join(e2e.dir.outside, "created.sh"), dangling);
    const requestsBefore = e2e.server.requests.length;

    const audit = await e2e.agent(["--audit-log", link, "--prompt", "hi"]);
    const record = await e2e.agent(["--record", dangling, "--prompt", "hi"]);

    expect(audit).toMatchObject({ exitCode: 2, stdout: "" });
    expect(stderrLines(audit)).toEqual([
      `agent: Cannot open the audit log ${link}: it is a symbolic link; the harness does not follow links for its own files`,
    ]);
    expect(record).toMatchObject({ exitCode: 2, stdout: "" });
    expect(stderrLines(record)).toEqual([
      `agent: Cannot create the recording file ${dangling}: it is a symbolic link; the harness does not follow links for its own files`,
    ]);
    expect(await readFile(victim, "utf8")).toBe("echo safe\n");
    expect(existsSync(join(e2e.dir.outside, "created.sh"))).toBe(false);
    expect(e2e.server.requests).toHaveLength(requestsBefore);
  });

  it.skipIf(process.platform === "win32")(
    "a hard-linked --audit-log or --record (a second name a command could rewrite it by): refused, nothing written",
    async () => {
      const log = join(e2e.dir.workspace, ".audit.jsonl");
      const recording = join(e2e.dir.workspace, "run.jsonl");
      await writeFile(log, "");
      await writeFile(recording, "keep\n");
      await link(log, join(e2e.dir.workspace, "notes.txt"));
      await link(recording, join(e2e.dir.workspace, "other.txt"));
      const requestsBefore = e2e.server.requests.length;

      const audit = await e2e.agent(["--audit-log", log, "--prompt", "hi"]);
      const record = await e2e.agent(["--record", recording, "--prompt", "hi"]);

      expect(audit).toMatchObject({ exitCode: 2, stdout: "" });
      expect(stderrLines(audit)).toEqual([
        `agent: Cannot open the audit log ${log}: it has 2 hard links; another name could change what the harness writes, so use a file with one name`,
      ]);
      expect(record).toMatchObject({ exitCode: 2, stdout: "" });
      expect(stderrLines(record)).toEqual([
        `agent: Cannot create the recording file ${recording}: it has 2 hard links; another name could change what the harness writes, so use a file with one name`,
      ]);
      expect(await readFile(log, "utf8")).toBe("");
      expect(await readFile(recording, "utf8")).toBe("keep\n");
      expect(e2e.server.requests).toHaveLength(requestsBefore);
    },
  );

  it.skipIf(process.platform === "win32")(
    "a FIFO as --audit-log or --replay, and /dev/zero as --replay: refused at once, never blocking",
    async () => {
      const fifo = join(e2e.dir.root, "pipe");
      execFileSync("mkfifo", [fifo]);
      const replay = (path: string) =>
        runCli(["--workspace", e2e.dir.workspace, "--replay", path, "--prompt", "hi"], {
          env: baseEnv(),
        });

      const audit = await e2e.agent(["--audit-log", fifo, "--prompt", "hi"]);
      const fromFifo = await replay(fifo);
      const fromZero = await replay("/dev/zero");

      expect(audit).toMatchObject({ exitCode: 2, stdout: "" });
      expect(stderrLines(audit)).toEqual([
        `agent: Cannot open the audit log ${fifo}: it is a FIFO or socket; the harness only uses a regular file`,
      ]);
      expect(fromFifo).toMatchObject({ exitCode: 2, stdout: "" });
      expect(stderrLines(fromFifo)).toEqual([
        `agent: Cannot read the replay file ${fifo}: it is a FIFO; the harness only uses a regular file`,
      ]);
      expect(fromZero).toMatchObject({ exitCode: 2, stdout: "" });
      expect(stderrLines(fromZero)).toEqual([
        "agent: Cannot read the replay file /dev/zero: it is a device; the harness only uses a regular file",
      ]);
    },
  );
});
