/**
 * `agent runs --help`, `agent explain --help`: what a new user types first. Each prints the usage
 * (which lists every command) and succeeds, instead of an "Unknown option" error.
 */
import { describe, expect, it } from "vitest";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv } from "./cli-process.js";

const e2e = useAgentFixture();

describe("a subcommand with --help or -h", () => {
  for (const argv of [
    ["runs", "--help"],
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
