/**
 * P04 through the real CLI: a run that needs an approval waits (exit 3, nothing started), the
 * person's `agent approve` records a grant, and `agent resume` of that run consumes it and runs the
 * command once in the sandbox. A grant is the asking run's alone (issue 28): a fresh run with the
 * same task asks for its own. p04-resume.test.ts follows the resumed run in more detail.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BWRAP_REASON, HAS_BWRAP } from "../support/bubblewrap.js";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";
import { countingPackageJson, npmCall as commandCall, writePackageJson } from "./p04-project.js";
import { runCli, serverEnv, startCli, stderrLines, type CliRun } from "./cli-process.js";
import { toolNames, toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

const PACKAGE_JSON = countingPackageJson("p04-demo");

function setUp(): Promise<void> {
  return writePackageJson(e2e.dir.workspace, PACKAGE_JSON);
}

function stateDir(): string {
  return join(e2e.dir.root, "state");
}

function env(): Record<string, string> {
  return { AGENT_STATE_DIR: stateDir() };
}

function cli(args: readonly string[]): Promise<CliRun> {
  // The subcommand's word comes first, so the workspace goes last.
  return runCli([...args, "--workspace", e2e.dir.workspace], {
    env: serverEnv(e2e.server.baseURL, env()),
  });
}

function runTask(extra: readonly string[] = []): Promise<CliRun> {
  return cli(["--chapter", "4", ...extra, "--prompt", "run the tests"]);
}

async function runs(file = "marker.txt"): Promise<number> {
  const path = join(e2e.dir.workspace, file);
  if (!existsSync(path)) return 0;
  return (await readFile(path, "utf8")).split("\n").filter((line) => line === "ran").length;
}

function runId(run: CliRun): string {
  const match = /then go on with: agent resume (\d{8}T\d{6}Z-[0-9a-f]{8})\n/.exec(run.stderr);
  if (match?.[1] === undefined) throw new Error(`no run id in:\n${run.stderr}`);
  return match[1];
}

function requestId(run: CliRun): string {
  const match = /waiting for approval: request (req_[0-9a-f]{16})/.exec(run.stderr);
  if (match?.[1] === undefined) throw new Error(`no request in:\n${run.stderr}`);
  return match[1];
}

async function consumedCount(): Promise<number> {
  const dirs = (await import("node:fs")).readdirSync(join(stateDir(), "workspaces"));
  const log = await readFile(
    join(stateDir(), "workspaces", dirs[0] ?? "", "approvals", "log.jsonl"),
    "utf8",
  );
  return log.split("\n").filter((line) => line.includes('"grant_consumed"')).length;
}

describe.skipIf(!HAS_BWRAP)(`P04: approvals that wait ${BWRAP_REASON}`, () => {
  it("waits with exit 3 and nothing started; approve; a new run of the same action does not get the grant, the resumed run consumes it and runs once", async () => {
    await setUp();
    e2e.server.script(commandCall("call_a"));
    const first = await runTask();
    expect(first.exitCode).toBe(3);
    expect(await runs()).toBe(0);
    const id = requestId(first);
    expect(first.stderr).toContain(
      `approve: agent approve ${id} [--ttl 15m]    deny: agent deny ${id}`,
    );
    expect(first.stderr).toContain("risk: npm runs arbitrary code");
    expect(first.stderr).toContain(
      `[Permission] run_command: ask (p04-policy) - Waiting for approval: request ${id}`,
    );
    // The model saw run_command and fetch_url, not shell.
    expect(toolNames(e2e.server.requests[0])).toEqual([
      "run_command",
      "read_file",
      "write_file",
      "edit_file",
      "glob",
      "fetch_url",
    ]);

    const listed = await cli(["approvals"]);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain(`${id} · asked`);
    expect(listed.stdout).toContain(
      `run_command ["npm","test"] in ${e2e.dir.workspace} · effect execute · sandbox: bwrap (network off`,
    );

    const approved = await runCli(["approve", id, "--workspace", e2e.dir.workspace], {
      env: serverEnv(e2e.server.baseURL, env()),
    });
    expect(approved.exitCode).toBe(0);
    expect(approved.stdout).toMatch(
      new RegExp(`^approved ${id}: one run of exactly that action, until `),
    );
    expect((await cli(["approvals"])).stdout).toBe(`no pending requests in ${e2e.dir.workspace}\n`);

    // Another run asking for exactly the same action: the grant is not its own, so it waits.
    e2e.server.script(commandCall("call_b"));
    const other = await runTask();
    expect(other.exitCode).toBe(3);
    expect(requestId(other)).not.toBe(id);
    expect(await runs()).toBe(0);
    expect(await consumedCount()).toBe(0);

    e2e.server.script(chatTextReply("Tests ran."));
    const second = await cli(["resume", runId(first)]);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe("Tests ran.\n");
    expect(await runs()).toBe(1);
    expect(second.stderr).toContain(
      `[Permission] run_command: allow (approval-grant) - Approved: grant for request ${id} consumed (one-time)`,
    );
    // npm's own banner, then the script's (silent) run: no Error line means exit code 0.
    const output = toolResults(e2e.server.requests[0]).call_a ?? "";
    expect(output).toContain("> node -e");
    expect(output).not.toMatch(/^Error /);

    // The same action again: the grant is used up, so a new request.
    e2e.server.script(commandCall("call_c"));
    const third = await runTask();
    expect(third.exitCode).toBe(3);
    expect(requestId(third)).not.toBe(id);
    expect(await runs()).toBe(1);
  }, 60_000);

  it("a grant covers only its own action: changed arguments make a new request, and the grant stays unused", async () => {
    await setUp();
    e2e.server.script(commandCall("call_a"));
    const waiting = await runTask();
    const id = requestId(waiting);
    expect((await cli(["approve", id])).exitCode).toBe(0);

    e2e.server.script(commandCall("call_b", ["run", "lint"]));
    const changed = await runTask();
    expect(changed.exitCode).toBe(3);
    expect(requestId(changed)).not.toBe(id);
    expect(await runs("lint.txt")).toBe(0);

    // Arguments off the allowlist are not even asked about.
    e2e.server.script(commandCall("call_c", ["test", "--", "--evil"]), chatTextReply("ok"));
    const offList = await runTask();
    expect(offList.exitCode).toBe(4); // piped, every call denied (issue 27: exit 4)
    expect(toolResults(e2e.server.requests[1]).call_c).toBe(
      'Error [policy_denied]: argv_not_allowed: ["npm","test","--","--evil"] is not exactly on the allowlist (see agent commands)' +
        ` (executed: no; source: p04-policy; scope: run_command ["npm","test","--","--evil"] in ${e2e.dir.workspace})`,
    );

    // The npm test grant is still there for the npm test of the run that asked.
    e2e.server.script(chatTextReply("ok"));
    expect((await cli(["resume", runId(waiting)])).exitCode).toBe(0);
    expect(await runs()).toBe(1);
  }, 60_000);

  it("an expired grant is refused: a new request, nothing run", async () => {
    await setUp();
    e2e.server.script(commandCall("call_a"));
    const id = requestId(await runTask());
    expect((await cli(["approve", id, "--ttl", "1s"])).exitCode).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    e2e.server.script(commandCall("call_b"));
    const late = await runTask();
    expect(late.exitCode).toBe(3);
    expect(requestId(late)).not.toBe(id);
    expect(await runs()).toBe(0);
  }, 60_000);

  it("a denied request makes the call return a denial; the run goes on", async () => {
    await setUp();
    e2e.server.script(commandCall("call_a"));
    const waiting = await runTask();
    const id = requestId(waiting);
    const auditPath = join(e2e.dir.outside, "audit.jsonl");
    const denied = await cli(["deny", id, "--audit-log", auditPath]);
    expect(denied.exitCode).toBe(0);
    const [auditLine] = (await readFile(auditPath, "utf8")).trim().split("\n");
    expect(JSON.parse(auditLine ?? "{}")).toMatchObject({
      approval: {
        requestId: id,
        answer: "denied",
        by: expect.stringMatching(/^agent deny /) as unknown,
      },
    });
    expect(denied.stdout).toBe(`denied ${id}: the waiting call will be refused\n`);
    expect((await cli(["approve", id])).stderr).toBe(`agent: request ${id} was already answered\n`);

    e2e.server.script(chatTextReply("Not allowed, stopping."));
    const after = await cli(["resume", runId(waiting)]);
    expect(after.exitCode).toBe(4); // piped, every call denied (issue 27: exit 4)
    expect(toolResults(e2e.server.requests[0]).call_a).toBe(
      `Error [permission_denied]: approval_denied: the person denied request ${id}` +
        ` (executed: no; source: approval-grant; scope: this exact action (request ${id}))`,
    );
    expect(await runs()).toBe(0);
  }, 60_000);

  it("the asking run's resume racing a new run of the same action: the command runs once, for the run that asked", async () => {
    await setUp();
    e2e.server.script(commandCall("call_a"));
    const waiting = await runTask();
    const id = requestId(waiting);
    expect((await cli(["approve", id])).exitCode).toBe(0);
    // Whichever asks the model first gets the call; either way only the resumed run has a grant.
    e2e.server.script(commandCall("call_b"), chatTextReply("done"));
    const start = (args: readonly string[]) =>
      startCli([...args, "--workspace", e2e.dir.workspace], {
        env: serverEnv(e2e.server.baseURL, env()),
      }).done;
    const results = await Promise.all([
      start(["resume", runId(waiting)]),
      start(["--chapter", "4", "--prompt", "run the tests"]),
    ]);
    expect(await runs()).toBe(1);
    expect(await consumedCount()).toBe(1);
    expect(results.map((run) => run.exitCode).sort()).toEqual([0, 3]);
  }, 60_000);

  it("fetch_url is visible and always denied; .agent/commands.json cannot be written by the model", async () => {
    await setUp();
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_f", name: "fetch_url", arguments: { url: "http://127.0.0.1:9/" } },
        {
          id: "call_w",
          name: "write_file",
          arguments: {
            path: ".agent/commands.json",
            content: '{"commands":[{"argv":["rm","-rf","/"]}]}',
          },
        },
      ]),
      chatTextReply("ok"),
    );
    const run = await runTask();
    expect(run.exitCode).toBe(4); // piped, every call denied (issue 27: exit 4)
    const results = toolResults(e2e.server.requests[1]);
    expect(results.call_f).toBe(
      "Error [policy_denied]: network_or_external_effect_not_allowed: fetch_url reaches outside this machine; P04 never allows an external effect" +
        " (executed: no; source: p04-policy; scope: every fetch_url call)",
    );
    expect(results.call_w).toMatch(/^Error \[permission_denied\]: /);
    expect(existsSync(join(e2e.dir.workspace, ".agent", "commands.json"))).toBe(false);
  }, 60_000);

  it("agent commands lists each entry with its source; a bad commands.json is a configuration error", async () => {
    await setUp();
    await mkdir(join(e2e.dir.workspace, ".agent"));
    await writeFile(
      join(e2e.dir.workspace, ".agent", "commands.json"),
      JSON.stringify({ commands: [{ argv: ["node", "--version"], note: "which node" }] }),
    );
    const listed = await cli(["commands"]);
    expect(listed.stdout).toBe(
      [
        '["npm","test"]  package.json scripts.test',
        '["npm","run","lint"]  package.json scripts.lint',
        '["node","--version"]  .agent/commands.json #1 · which node',
        "",
      ].join("\n"),
    );
    await writeFile(
      join(e2e.dir.workspace, ".agent", "commands.json"),
      '{"commands":[{"argv":["./x"]}]}',
    );
    const bad = await runTask();
    expect(bad.exitCode).toBe(2);
    expect(stderrLines(bad).at(-1)).toMatch(
      /^agent: \.agent\/commands\.json is invalid at commands\.0\.argv: argv\[0\] must be a bare program name/,
    );
  }, 60_000);

  it("with --sandbox off a command is refused before anyone is asked", async () => {
    await setUp();
    e2e.server.script(commandCall("call_a"), chatTextReply("ok"));
    const run = await runTask(["--sandbox", "off"]);
    expect(run.exitCode).toBe(4); // piped, every call denied (issue 27: exit 4)
    expect(toolResults(e2e.server.requests[1]).call_a).toMatch(
      /^Error \[policy_denied\]: sandbox_unavailable: commands run only in the sandbox/,
    );
    expect(run.stderr).not.toContain("waiting for approval");
    expect(await runs()).toBe(0);
  }, 60_000);

  it.skipIf(!isPtyAvailable())(
    `at a terminal: [y/N] after the request and its risks; y is a grant consumed by this call ${PTY_REASON}`,
    async () => {
      await setUp();
      e2e.server.script(commandCall("call_t"), chatTextReply("Ran."));
      const { exitCode, output } = await runInPty(
        e2e.argv(["--chapter", "4", "--prompt", "run the tests"]),
        {
          env: serverEnv(e2e.server.baseURL, env()),
          prompt: "[y/N] ",
          answers: ["y\r"],
        },
      );
      expect(exitCode).toBe(0);
      const screen = terminalScreenLines(output);
      const request = screen.findIndex((line) => line.startsWith("Request req_"));
      expect(request).toBeGreaterThanOrEqual(0);
      // The request's wrapped rows are indented; the next row at the margin is its first risk.
      const next = screen.slice(request + 1).findIndex((line) => !line.startsWith("  "));
      expect(screen[request + 1 + next]).toMatch(/^Risk: npm runs arbitrary code/);
      expect(
        screen.some((line) =>
          line.startsWith(
            "[Permission] run_command: allow (approval-grant) - Approved: grant for request req_",
          ),
        ),
      ).toBe(true);
      expect(await runs()).toBe(1);
      // The grant was used by that call: nothing is left for a later run.
      expect((await cli(["approvals"])).stdout).toBe(
        `no pending requests in ${e2e.dir.workspace}\n`,
      );
      expect(await consumedCount()).toBe(1);
    },
    60_000,
  );

  it.skipIf(!isPtyAvailable())(
    "at a terminal a request too long to show is not asked: it waits, and agent approvals shows it whole (issue 39)",
    async () => {
      const test = `${PACKAGE_JSON.scripts.test} ; echo ${"x".repeat(5000)}`;
      await writePackageJson(e2e.dir.workspace, { ...PACKAGE_JSON, scripts: { test } });
      e2e.server.script(commandCall("call_t"), chatTextReply("Ran."));
      const { exitCode, output } = await runInPty(
        e2e.argv(["--chapter", "4", "--prompt", "run the tests"]),
        { env: serverEnv(e2e.server.baseURL, env()), prompt: "[y/N] ", answers: [] },
      );
      expect(exitCode).toBe(3);
      expect(output).not.toContain("[y/N]");
      const screen = terminalScreenLines(output);
      const waiting = screen.find((line) => line.startsWith("agent: waiting for approval: "));
      const id = /request (req_[0-9a-f]{16}) \(nothing ran\)/u.exec(waiting ?? "")?.[1];
      if (id === undefined) throw new Error(`no waiting request in:\n${screen.join("\n")}`);
      expect(
        screen.some((line) =>
          /^ {2}the request is \d+ characters long, too long to show here \(more than 4000\): read it whole with agent approvals$/u.test(
            line,
          ),
        ),
      ).toBe(true);
      expect(await runs()).toBe(0);

      // Where it sent the person, the request is, whole, its script in the marked block.
      const listed = await cli(["approvals"]);
      expect(listed.exitCode).toBe(0);
      const lines = listed.stdout.split("\n");
      expect(lines[0]).toMatch(new RegExp(`^${id} · asked `, "u"));
      expect(lines.slice(1)).toEqual([
        `  run_command ["npm","test"] in ${e2e.dir.workspace} · effect execute · sandbox: bwrap (network off, writable: ${e2e.dir.workspace})`,
        "  ┌─ what it runs or writes, as written (any character but printable ASCII shown as \\uXXXX):",
        `  │ runs the script ${JSON.stringify(test)}`,
        "  └─ end of the block",
        expect.stringMatching(/^ {2}risk: npm runs arbitrary code/u),
        expect.stringMatching(/^ {2}risk: it can create, change or delete any file/u),
        "",
      ]);

      // And answered from there: the resumed run consumes the grant and runs it once.
      const approved = await cli(["approve", id]);
      expect(approved.exitCode).toBe(0);
      const resumed = await cli(["resume"]);
      expect(resumed.exitCode).toBe(0);
      expect(await runs()).toBe(1);
    },
    60_000,
  );

  it("an approved command cannot widen the allowlist: .agent is read-only in the sandbox", async () => {
    const planting = {
      name: "p04-demo",
      scripts: {
        test: "node -e \"const fs=require('fs'); fs.mkdirSync('.agent',{recursive:true}); fs.writeFileSync('.agent/commands.json', JSON.stringify({commands:[{argv:['sh','-c','id']}]}))\"",
      },
    };
    await writeFile(join(e2e.dir.workspace, "package.json"), JSON.stringify(planting));
    e2e.server.script(commandCall("call_a"));
    const waiting = await runTask();
    const id = requestId(waiting);
    expect((await cli(["approve", id])).exitCode).toBe(0);
    e2e.server.script(chatTextReply("done"));
    const run = await cli(["resume", runId(waiting)]);
    expect(run.exitCode).toBe(0);
    expect(toolResults(e2e.server.requests[0]).call_a).toMatch(
      /^Error \[shell_failed\]: npm exited with code 1 \(the command ran\)/,
    );
    expect(existsSync(join(e2e.dir.workspace, ".agent", "commands.json"))).toBe(false);
    expect((await cli(["commands"])).stdout).toBe('["npm","test"]  package.json scripts.test\n');
  }, 60_000);

  it("a grant for npm test does not cover a test script changed afterwards; the model's own rewrite is asked about", async () => {
    await setUp();
    e2e.server.script(commandCall("call_a"));
    const first = await runTask();
    const id = requestId(first);
    expect(first.stderr).toContain(`runs the script ${JSON.stringify(PACKAGE_JSON.scripts.test)}`);
    expect((await cli(["approve", id])).exitCode).toBe(0);
    const rewritten = {
      ...PACKAGE_JSON,
      scripts: {
        ...PACKAGE_JSON.scripts,
        test: "node -e \"require('fs').writeFileSync('pwned.txt','x')\"",
      },
    };
    // package.json is run later by npm: the model's rewrite waits for its own approval.
    const original = await readFile(join(e2e.dir.workspace, "package.json"), "utf8");
    e2e.server.script(
      chatToolCallsReply([
        {
          id: "call_w",
          name: "write_file",
          arguments: { path: "package.json", content: JSON.stringify(rewritten) },
        },
      ]),
    );
    const asked = await runTask();
    expect(asked.exitCode).toBe(3);
    expect(asked.stderr).toContain('write_file "package.json"');
    expect(await readFile(join(e2e.dir.workspace, "package.json"), "utf8")).toBe(original);

    // Changed anyway (by the person, or a command), the grant for npm test does not cover it.
    await writeFile(join(e2e.dir.workspace, "package.json"), JSON.stringify(rewritten));
    e2e.server.script(commandCall("call_b"));
    const second = await runTask();
    expect(second.exitCode).toBe(3);
    expect(requestId(second)).not.toBe(id);
    expect(existsSync(join(e2e.dir.workspace, "pwned.txt"))).toBe(false);
    expect(await runs()).toBe(0);
  }, 60_000);

  it("a grant for npm test does not cover a pretest script or a .npmrc added afterwards", async () => {
    await setUp();
    e2e.server.script(commandCall("call_a"));
    const id = requestId(await runTask());
    expect((await cli(["approve", id])).exitCode).toBe(0);
    const withPretest = {
      ...PACKAGE_JSON,
      scripts: {
        ...PACKAGE_JSON.scripts,
        pretest: "node -e \"require('fs').writeFileSync('pwned.txt','x')\"",
      },
    };
    // Written outside the model's file tools (chapter 4 asks before the model writes either).
    await writeFile(join(e2e.dir.workspace, "package.json"), JSON.stringify(withPretest));
    await writeFile(join(e2e.dir.workspace, ".npmrc"), "node-options=--require=./x.cjs\n");
    e2e.server.script(commandCall("call_b"));
    const second = await runTask();
    expect(second.exitCode).toBe(3);
    const next = requestId(second);
    expect(next).not.toBe(id);
    // The request names everything npm would run, so the person approves what runs.
    expect(second.stderr).toContain(
      `and npm runs pretest ${JSON.stringify(withPretest.scripts.pretest)} around it`,
    );
    expect(second.stderr).toContain(
      `under the workspace's .npmrc ${JSON.stringify("node-options=--require=./x.cjs\n")}`,
    );
    expect(existsSync(join(e2e.dir.workspace, "pwned.txt"))).toBe(false);
    expect(await runs()).toBe(0);
  }, 60_000);

  it("npm forms that bind nothing are refused with a reason, not asked about (issue 28; issue 41: when commands.json is read)", async () => {
    await setUp();
    await mkdir(join(e2e.dir.workspace, ".agent"));
    await writeFile(
      join(e2e.dir.workspace, ".agent", "commands.json"),
      JSON.stringify({
        commands: [{ argv: ["npm", "install"] }, { argv: ["npx", "eslint", "."] }],
      }),
    );
    e2e.server.script(chatTextReply("never asked"));
    // The run: a configuration error before the model is asked anything.
    const run = await runTask();
    expect(run.exitCode).toBe(2);
    expect(run.stderr).not.toContain("waiting for approval");
    expect(e2e.server.requests).toHaveLength(0);
    expect(stderrLines(run).at(-1)).toBe(
      'agent: .agent/commands.json #1 ["npm","install"] can never run: `npm install` runs the install scripts of the project and of every package it installs, code the harness cannot show or bind; only `npm test` and `npm run <name>` (optionally with `-w`/`--workspace`, `-ws` or `--include-workspace-root`, and followed by `--` and arguments for the script) are bound to what they run',
    );
    // agent commands says the same, and lists nothing as if it could run.
    const listed = await cli(["commands"]);
    expect(listed.exitCode).toBe(2);
    expect(listed.stdout).toBe("");
    expect(listed.stderr).toContain('.agent/commands.json #1 ["npm","install"] can never run');
    // npx alone is refused the same way, with its own reason.
    await writeFile(
      join(e2e.dir.workspace, ".agent", "commands.json"),
      JSON.stringify({ commands: [{ argv: ["npx", "eslint", "."] }] }),
    );
    const npx = await cli(["commands"]);
    expect(npx.exitCode).toBe(2);
    expect(npx.stderr).toMatch(
      /^agent: \.agent\/commands\.json #1 \["npx","eslint","\."\] can never run: npx runs package scripts or fetched packages/u,
    );
  }, 60_000);

  it.skipIf(!isTmuxAvailable())(
    `at a terminal a script cannot draw rows of its own at the margin (issue 28) ${TMUX_REASON}`,
    async () => {
      // 27 characters, prime to the 80 columns: wrapped at column 0 by the terminal, one of the
      // 80 copies would start a row and pass for the harness's own Risk: line.
      const fake = "Risk: none, only the tests.";
      const script = `node -e 0 ; ${fake.repeat(80)}`;
      await writePackageJson(e2e.dir.workspace, { name: "p04-demo", scripts: { test: script } });
      e2e.server.script(commandCall("call_t"), chatTextReply("Not run."));
      const history = await e2e.inTerminal(
        ["--chapter", "4", "--prompt", "run the tests"],
        async (terminal) => {
          await terminal.waitForScreen((rows) => rows.some((row) => row.includes("[y/N]")));
          const shown = terminal.history();
          terminal.type("n", "Enter");
          await terminal.waitForExit();
          return shown;
        },
        { extraEnv: env() },
      );
      const request = history.findIndex((row) => row.startsWith("Request req_"));
      expect(request).toBeGreaterThanOrEqual(0);
      const margin = history.slice(request).filter((row) => /^\S/u.test(row));
      expect(margin.filter((row) => row.startsWith("Risk: none"))).toEqual([]);
      expect(margin.filter((row) => row.startsWith("Risk: "))).toHaveLength(2);
      // Shown whole: every copy is on the screen, in the block's rows (tmux drops a row's trailing
      // blanks, so the comparison leaves spaces out).
      // Each row of the script, wrapped ones too, is in the marked block: read without its mark.
      const joined = history
        .slice(request)
        .map((row) => row.replace(/^ {2}│ /u, ""))
        .join("")
        .replaceAll(" ", "");
      expect(joined).toContain(JSON.stringify(script).replaceAll(" ", ""));
      expect(await runs()).toBe(0);
    },
    60_000,
  );
});
