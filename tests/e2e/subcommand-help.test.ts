/**
 * `agent runs --help`, `agent explain --help`: what a new user types first. A command with its own
 * help (`runs`) prints that; the others print the usage (which lists every command). Each succeeds
 * instead of an "Unknown option" error.
 */
import { describe, expect, it } from "vitest";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv } from "./cli-process.js";

const e2e = useAgentFixture();

const RUNS_HELP = `Usage: agent runs [--workspace <dir>] [--state-dir <dir>]
                  [--limit <n> | --all] [--json]

Lists this workspace's runs, newest first: id, start time (UTC), status
(running, open, unfinished, completed, failed, cancelled, waiting) and the task,
under a header line on a terminal (rows only when stdout is piped).
The newest 20 unless --limit or --all asks for more.
Go on with an unfinished one: agent resume [<id>].
--json prints them as one JSON array instead (docs/output-format.md).
`;

describe("a subcommand with --help or -h", () => {
  for (const argv of [
    ["runs", "--help"],
    ["runs", "-h"],
    ["runs", "--workspace", ".", "-h"],
  ]) {
    it(`agent ${argv.join(" ")} prints the runs help and exits 0`, async () => {
      const run = await runCli([...argv, "--workspace", e2e.dir.workspace], {
        env: serverEnv(e2e.server.baseURL),
      });
      expect(run).toMatchObject({ exitCode: 0, stdout: RUNS_HELP, stderr: "" });
      expect(e2e.server.rawRequests).toEqual([]);
    });
  }

  it("agent runs --bogus points to a help that exists", async () => {
    const run = await runCli(["runs", "--bogus", "--workspace", e2e.dir.workspace], {
      env: serverEnv(e2e.server.baseURL),
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("(see agent runs --help)");
    const help = await runCli(["runs", "--help"], { env: serverEnv(e2e.server.baseURL) });
    expect(help.stdout).toBe(RUNS_HELP);
  });

  for (const argv of [
    ["resume", "-h"],
    ["approvals", "--help"],
    ["approve", "--help"],
    ["deny", "-h"],
    ["commands", "--help"],
    ["explain", "--help"],
    ["explain", "shell", "--help"],
  ]) {
    it(`agent ${argv.join(" ")} prints the usage and exits 0`, async () => {
      const run = await runCli([...argv, "--workspace", e2e.dir.workspace], {
        env: serverEnv(e2e.server.baseURL),
      });
      expect(run).toMatchObject({ exitCode: 0, stderr: "" });
      expect(run.stdout).toMatch(/^Usage: agent /);
      expect(run.stdout).toContain(`  agent ${argv[0]}`);
      expect(e2e.server.rawRequests).toEqual([]);
    });
  }

  it("a --help inside the explained call's JSON is the call's, not a request for help", async () => {
    const run = await runCli(
      ["explain", "shell", '{"command":"ls --help"}', "--workspace", e2e.dir.workspace],
      { env: serverEnv(e2e.server.baseURL) },
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("\nprepare: ok · shell (effect execute)");
  });
});
