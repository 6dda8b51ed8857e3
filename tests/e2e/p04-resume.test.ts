/**
 * Issue 17's wait and resume through the real CLI, with issue 16's `agent resume`: a P04 run that
 * needs an approval waits (exit 3, nothing started), `agent approve` records a grant, and
 * `agent resume` goes on with the SAME run, whose waiting call then consumes the grant and runs once
 * in bubblewrap. `npm test` appends a line to marker.txt, so the file counts the runs.
 */
import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HAS_BWRAP } from "../support/bubblewrap.js";
import { chatTextReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { countingPackageJson, npmCall as commandCall, writePackageJson } from "./p04-project.js";
import { linesOf, runCli, serverEnv, startCli, type CliRun } from "./cli-process.js";
import { pairingProblems, toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

const PACKAGE_JSON = countingPackageJson("p04-resume");

const TASK = "run the tests";

function setUp(packageJson: object = PACKAGE_JSON): Promise<void> {
  return writePackageJson(e2e.dir.workspace, packageJson);
}

/** This test's own state directory, beside (never inside) its workspace. */
function stateDir(): string {
  return join(e2e.dir.root, "state");
}

function workspaceState(): string {
  const workspaces = join(stateDir(), "workspaces");
  const [only] = readdirSync(workspaces);
  return join(workspaces, only ?? "");
}

/** `agent WORD ARGS --workspace <ws>`: a subcommand's word comes first. */
function cliArgs(args: readonly string[]): string[] {
  return [...args, "--workspace", e2e.dir.workspace];
}

function cliEnv(): Record<string, string> {
  return serverEnv(e2e.server.baseURL, { AGENT_STATE_DIR: stateDir() });
}

function cli(args: readonly string[]): Promise<CliRun> {
  return runCli(cliArgs(args), { env: cliEnv() });
}

function startRun(extra: readonly string[] = []): Promise<CliRun> {
  return cli(["--chapter", "4", ...extra, "--prompt", TASK]);
}

/** How many times the script that appends to `file` ran. */
async function timesRun(file = "marker.txt"): Promise<number> {
  const path = join(e2e.dir.workspace, file);
  if (!existsSync(path)) return 0;
  return linesOf(await readFile(path, "utf8")).filter((line) => line === "ran").length;
}

function requestId(run: CliRun): string {
  const match = /waiting for approval: request (req_[0-9a-f]{16})/.exec(run.stderr);
  if (match?.[1] === undefined) throw new Error(`no request in:\n${run.stderr}`);
  return match[1];
}

function runId(run: CliRun): string {
  const match = /then go on with: agent resume (\d{8}T\d{6}Z-[0-9a-f]{8})\n/.exec(run.stderr);
  if (match?.[1] === undefined) throw new Error(`no run id in:\n${run.stderr}`);
  return match[1];
}

/** The grant store's own log: which requests' grants were consumed, in order. */
async function consumedGrants(): Promise<string[]> {
  const log = await readFile(join(workspaceState(), "approvals", "log.jsonl"), "utf8");
  return linesOf(log)
    .map((line) => JSON.parse(line) as { event: string; requestId: string })
    .filter((entry) => entry.event === "grant_consumed")
    .map((entry) => entry.requestId);
}

interface JournalLine {
  type: string;
  [key: string]: unknown;
}

async function journal(run: string): Promise<JournalLine[]> {
  const text = await readFile(join(workspaceState(), "runs", `${run}.jsonl`), "utf8");
  return linesOf(text).map((line) => JSON.parse(line) as JournalLine);
}

async function approve(id: string, extra: readonly string[] = []): Promise<void> {
  const approved = await cli(["approve", id, ...extra]);
  expect(approved.exitCode, approved.stderr).toBe(0);
}

/** A run that waits for `npm test`: its run id and request id. */
async function waitingRun(callId = "call_a"): Promise<{ run: string; request: string }> {
  e2e.server.script(commandCall(callId));
  const first = await startRun();
  expect(first.exitCode, first.stderr).toBe(3);
  return { run: runId(first), request: requestId(first) };
}

describe.skipIf(!HAS_BWRAP)("P04: wait, approve, resume the same run", () => {
  it("the first run waits: exit 3, nothing started, agent runs shows it waiting, and how to approve and resume", async () => {
    await setUp();
    e2e.server.script(commandCall("call_a"));
    const first = await startRun();
    expect(first.exitCode).toBe(3);
    expect(first.stdout).toBe("");
    expect(await timesRun()).toBe(0);
    const id = requestId(first);
    const run = runId(first);
    expect(first.stderr).toContain(
      `  approve: agent approve ${id} [--ttl 15m]    deny: agent deny ${id}\n  then go on with: agent resume ${run}\n`,
    );
    const listed = await cli(["runs"]);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${run} {2}\\S+ {2}waiting {5}${TASK}\\n$`, "u"));
    expect((await journal(run)).map((record) => record.type)).toEqual([
      "run_started",
      "model_reply",
      "call_prepared",
      "run_waiting",
    ]);
  }, 60_000);

  it("agent approve, then agent resume (the newest waiting run): the command runs once in bubblewrap and the run reaches its answer", async () => {
    await setUp();
    const { run, request } = await waitingRun();
    await approve(request);

    e2e.server.script(chatTextReply("Tests ran."));
    const resumed = await cli(["resume"]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe("Tests ran.\n");
    expect(resumed.stderr).toContain(`agent: resuming run ${run} (waiting): ${TASK}\n`);
    expect(resumed.stderr).toContain(
      `[Permission] run_command: allow (approval-grant) - Approved: grant for request ${request} consumed (one-time)`,
    );
    expect(await timesRun()).toBe(1);
    expect(await consumedGrants()).toEqual([request]);
    // The model saw the call it made in the first run answered by the command's output.
    const [next] = e2e.server.requests;
    expect(pairingProblems(next?.messages ?? [])).toEqual([]);
    expect(next?.messages.filter((message) => message.role === "user")).toHaveLength(1);
    const output = toolResults(next).call_a ?? "";
    expect(output).toContain("> node -e");
    expect(output).not.toMatch(/^Error /);

    const records = await journal(run);
    expect(records.map((record) => record.type)).toEqual([
      "run_started",
      "model_reply",
      "call_prepared",
      "run_waiting",
      "run_resumed",
      "call_prepared",
      "decision",
      "execution_started",
      "process_started",
      "execution_finished",
      "model_reply",
      "run_finished",
    ]);
    // Where it ran, as the harness decided it: bubblewrap, network off.
    expect(records[7]).toMatchObject({ callId: "call_a", tool: "run_command" });
    // The recovery record: the operation reserved before the call, and the sandbox's pid.
    expect(records[8]).toMatchObject({ callId: "call_a", operationId: records[7]?.operationId });
    expect(records[8]?.pid).toEqual(expect.any(Number));
    expect(String(records[7]?.environment)).toMatch(/^sandbox: bwrap \(network off/);
    expect((await cli(["runs"])).stdout).toContain(`${run}  `);
    expect((await cli(["runs"])).stdout).toContain("  completed   run the tests\n");
  }, 60_000);

  it("a second agent resume of that run runs nothing again: the run is completed and the grant used", async () => {
    await setUp();
    const { run, request } = await waitingRun();
    await approve(request);
    e2e.server.script(chatTextReply("Tests ran."));
    expect((await cli(["resume", run])).exitCode).toBe(0);
    expect(await timesRun()).toBe(1);

    e2e.server.script(chatTextReply("again?"));
    const again = await cli(["resume", run]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toBe(`agent: run ${run} already completed; nothing to resume\n`);
    const newest = await cli(["resume"]);
    expect(newest.exitCode).toBe(2);
    expect(newest.stderr).toBe(
      `agent: no unfinished run in ${e2e.dir.workspace} to resume (agent runs lists them; agent resume --last goes on with the newest, whatever its state)\n`,
    );
    expect(e2e.server.requests).toHaveLength(0);
    expect(await timesRun()).toBe(1);
    expect(await consumedGrants()).toEqual([request]);
  }, 60_000);

  it("a resumed run whose model asks for other arguments waits again with a new request; the grant served only the approved call", async () => {
    await setUp();
    const { run, request } = await waitingRun();
    await approve(request);

    e2e.server.script(commandCall("call_b", ["run", "lint"]));
    const resumed = await cli(["resume", run]);
    expect(resumed.exitCode).toBe(3);
    const second = requestId(resumed);
    expect(second).not.toBe(request);
    expect(runId(resumed)).toBe(run);
    expect(resumed.stderr).toContain(`run_command ["npm","run","lint"] in ${e2e.dir.workspace}`);
    expect(await timesRun()).toBe(1);
    expect(await timesRun("lint.txt")).toBe(0);
    expect(await consumedGrants()).toEqual([request]);

    // The same argv once more is no exception: the grant was for one run of it.
    await approve(second);
    e2e.server.script(commandCall("call_c"));
    const third = await cli(["resume", run]);
    expect(third.exitCode).toBe(3);
    expect(await timesRun("lint.txt")).toBe(1);
    expect(await timesRun()).toBe(1);
    expect(await consumedGrants()).toEqual([request, second]);
  }, 60_000);

  it("the test script changed after agent approve: the resumed call is refused as changed, nothing runs, the grant stays unused", async () => {
    await setUp();
    const { run, request } = await waitingRun();
    await approve(request);
    const changed = {
      ...PACKAGE_JSON,
      scripts: {
        ...PACKAGE_JSON.scripts,
        test: "node -e \"require('fs').writeFileSync('pwned.txt','x')\"",
      },
    };
    await setUp(changed);

    e2e.server.script(chatTextReply("The script changed; not run."));
    const resumed = await cli(["resume", run]);
    expect(resumed.exitCode, resumed.stderr).toBe(4); // piped, every call denied
    expect(toolResults(e2e.server.requests[0]).call_a).toBe(
      `Error [action_changed_since_approval]: request ${request} approved this call, ` +
        "but the action it is now differs from the one approved (a script or file it runs, npm's " +
        "configuration, where it runs, or where a path lands changed since), so nothing was run; " +
        "call the tool " +
        "again to ask about the action as it is now" +
        ` (executed: no; source: approval-grant; scope: this call (request ${request}))`,
    );
    expect(existsSync(join(e2e.dir.workspace, "pwned.txt"))).toBe(false);
    expect(await timesRun()).toBe(0);
    expect(await consumedGrants()).toEqual([]);
  }, 60_000);

  it("a resume before the answer waits on the same request; one for a changed action replaces it", async () => {
    await setUp();
    const { run, request } = await waitingRun();

    // Nobody answered; the resume asks again for the same action: the id the person has holds.
    const same = await cli(["resume", run]);
    expect(same.exitCode).toBe(3);
    expect(requestId(same)).toBe(request);
    expect((await cli(["approvals"])).stdout.match(/^req_[0-9a-f]{16}/gmu)).toEqual([request]);

    // What npm test runs changed: the call is another action now, asked with a new request.
    const changed = { ...PACKAGE_JSON, scripts: { ...PACKAGE_JSON.scripts } };
    changed.scripts.test = `${PACKAGE_JSON.scripts.test} `;
    await setUp(changed);
    const again = await cli(["resume", run]);
    expect(again.exitCode).toBe(3);
    const current = requestId(again);
    expect(current).not.toBe(request);
    expect(again.stderr).toContain(
      `  it replaces request ${request}, which can no longer be approved: what the call would run changed since\n`,
    );

    const listed = await cli(["approvals"]);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout.match(/^req_[0-9a-f]{16}/gmu)).toEqual([current]);
    expect(listed.stdout).toMatch(new RegExp(`^${current} · asked \\S+ by run ${run} · expires`));

    const old = await cli(["approve", request]);
    expect(old.exitCode).toBe(2);
    expect(old.stderr).toBe(
      `agent: request ${request} was replaced by request ${current} (run ${run} asked again); answer that one\n`,
    );
    await approve(current);
    e2e.server.script(chatTextReply("Tests ran."));
    const done = await cli(["resume", run]);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(await timesRun()).toBe(1);
    expect(await consumedGrants()).toEqual([current]);
    expect((await cli(["approvals"])).stdout).toBe(`no pending requests in ${e2e.dir.workspace}\n`);
  }, 60_000);

  it("an expired grant is refused: the resumed run waits again with a new request and nothing runs", async () => {
    await setUp();
    const { run, request } = await waitingRun();
    await approve(request, ["--ttl", "1s"]);
    await new Promise((resolve) => setTimeout(resolve, 1200));

    const late = await cli(["resume", run]);
    expect(late.exitCode).toBe(3);
    expect(requestId(late)).not.toBe(request);
    expect(runId(late)).toBe(run);
    expect(await timesRun()).toBe(0);
    expect(await consumedGrants()).toEqual([]);
    expect((await cli(["runs"])).stdout).toContain("  waiting     run the tests\n");
  }, 60_000);

  it("two agent resume of one waiting run at once: one holds the run, the other is refused; the command runs once", async () => {
    await setUp();
    const { run, request } = await waitingRun();
    await approve(request);

    // The winner's next model request is held until the loser has tried and given up.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    e2e.server.script(async () => {
      await held;
      return chatTextReply("Tests ran.");
    });
    const winner = startCli(cliArgs(["resume", run]), { env: cliEnv() }).done;
    await e2e.server.waitForRequests(1);
    const loser = await cli(["resume", run]);
    release();
    const won = await winner;

    expect(won.exitCode, won.stderr).toBe(0);
    expect(loser.exitCode).toBe(2);
    expect(loser.stderr).toMatch(
      new RegExp(
        `^agent: the run is in use by process \\d+ \\(lock .*${run}\\.lock\\); wait for it to end`,
      ),
    );
    expect(await timesRun()).toBe(1);
    expect(await consumedGrants()).toEqual([request]);
  }, 60_000);

  it("two agent resume started together: the command runs once, the grant is consumed once", async () => {
    await setUp();
    const { run, request } = await waitingRun();
    await approve(request);

    e2e.server.script(chatTextReply("Tests ran."), chatTextReply("Tests ran."));
    const results = await Promise.all([
      startCli(cliArgs(["resume", run]), { env: cliEnv() }).done,
      startCli(cliArgs(["resume", run]), { env: cliEnv() }).done,
    ]);
    expect(results.map((result) => result.exitCode).sort()).toEqual([0, 2]);
    const refused = results.find((result) => result.exitCode === 2);
    // Refused while the other held the run, or after it had finished it.
    expect(refused?.stderr).toMatch(
      /^agent: (the run is in use by process \d+ |run \S+ already completed; nothing to resume\n$)/,
    );
    expect(await timesRun()).toBe(1);
    expect(await consumedGrants()).toEqual([request]);
  }, 60_000);

  it("two waiting runs of the same action and one grant: only the run that asked consumes it, the other waits again", async () => {
    await setUp();
    const first = await waitingRun("call_a");
    const second = await waitingRun("call_b");
    expect(second.run).not.toBe(first.run);
    await approve(first.request);

    e2e.server.script(chatTextReply("Tests ran."));
    const results = await Promise.all([
      startCli(cliArgs(["resume", first.run]), { env: cliEnv() }).done,
      startCli(cliArgs(["resume", second.run]), { env: cliEnv() }).done,
    ]);
    // The grant answers the first run's request: that run runs, the second asks for its own.
    expect(results.map((result) => result.exitCode)).toEqual([0, 3]);
    expect(await timesRun()).toBe(1);
    expect(await consumedGrants()).toEqual([first.request]);
    const waiting = results.find((result) => result.exitCode === 3);
    expect(waiting === undefined ? "" : requestId(waiting)).not.toBe(first.request);
  }, 60_000);
  it("resume keeps the run's sandbox and network: a conflicting --network or --sandbox is refused, the approved call still waits", async () => {
    await setUp();
    const { run, request } = await waitingRun();
    await approve(request);

    e2e.server.script(chatTextReply("should not be asked"));
    const network = await cli(["resume", run, "--network"]);
    expect(network.exitCode).toBe(2);
    expect(network.stderr).toBe(
      `agent: run ${run} was started without --network, and resume keeps it: leave out --network\n`,
    );
    const off = await cli(["resume", run, "--sandbox", "off"]);
    expect(off.exitCode).toBe(2);
    expect(off.stderr).toBe(
      `agent: run ${run} was started with --sandbox auto, and resume keeps it: leave out --sandbox (or give --sandbox auto)\n`,
    );
    expect(e2e.server.requests).toHaveLength(0);
    expect(await timesRun()).toBe(0);
    expect(await consumedGrants()).toEqual([]);
    expect((await cli(["runs"])).stdout).toContain("  waiting     run the tests\n");

    // AGENT_SANDBOX is as much a choice as the flag: a different one is refused too. The run's
    // own setting given again is no conflict.
    const viaEnv = await runCli(cliArgs(["resume", run]), {
      env: { ...cliEnv(), AGENT_SANDBOX: "off" },
    });
    expect(viaEnv.exitCode).toBe(2);
    expect(viaEnv.stderr).toBe(
      `agent: run ${run} was started with --sandbox auto, and resume keeps it: unset AGENT_SANDBOX (or set it to auto)\n`,
    );
    e2e.server.script(chatTextReply("Tests ran."));
    const same = await cli(["resume", run, "--sandbox", "auto"]);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(await timesRun()).toBe(1);
    expect(await consumedGrants()).toEqual([request]);
  }, 60_000);
  it("the resume asks the run's own model, not the default one", async () => {
    await setUp();
    e2e.server.script(commandCall("call_a"));
    const first = await startRun(["--model", "model-of-the-run"]);
    expect(first.exitCode).toBe(3);
    await approve(requestId(first));
    e2e.server.script(chatTextReply("Tests ran."));
    const resumed = await cli(["resume", runId(first)]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(e2e.server.requests.map((request) => request.model)).toEqual(["model-of-the-run"]);
    expect(await timesRun()).toBe(1);
  }, 60_000);
  it("agent deny, then agent resume: the waiting call returns the denial, nothing runs, the run reaches its answer", async () => {
    await setUp();
    const { run, request } = await waitingRun();
    expect((await cli(["deny", request])).exitCode).toBe(0);
    e2e.server.script(chatTextReply("Not allowed, stopping."));
    const resumed = await cli(["resume", run]);
    expect(resumed.exitCode, resumed.stderr).toBe(4); // piped, every call denied (issue 27: exit 4)
    expect(resumed.stdout).toBe("Not allowed, stopping.\n");
    expect(toolResults(e2e.server.requests[0]).call_a).toBe(
      `Error [permission_denied]: approval_denied: the person denied request ${request}` +
        ` (executed: no; source: approval-grant; scope: this exact action (request ${request}))`,
    );
    expect(await timesRun()).toBe(0);
  }, 60_000);
});
