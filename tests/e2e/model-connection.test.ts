/**
 * The model connection end to end: each retry is said on stderr, the settings file's request
 * timeout and retries reach the run, and Ctrl-C during a retry's wait ends the run at once.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NEVER_ANSWER, chatErrorReply, chatTextReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv, startCli, stderrLines } from "./cli-process.js";

const e2e = useAgentFixture();

describe("the model connection", () => {
  it("says each retry on stderr, and the answer follows", async () => {
    e2e.server.script(
      chatErrorReply(503, "busy", { headers: { "retry-after": "0" } }),
      chatTextReply("Recovered."),
    );
    const run = await e2e.agent(["Hi"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("Recovered.\n");
    expect(stderrLines(run)).toContain("agent: retrying in 0 s (1 of 2): server error (HTTP 503)");
    expect(e2e.server.requests).toHaveLength(2);
  });

  it("does not retry with --retries 0", async () => {
    e2e.server.script(chatErrorReply(503, "busy"), chatTextReply("unused"));
    const run = await e2e.agent(["--retries", "0", "Hi"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).not.toContain("retrying");
    expect(e2e.server.requests).toHaveLength(1);
  });

  it("takes its retries from the settings file, and a flag over it", async () => {
    const config = join(e2e.dir.root, "config");
    await mkdir(join(config, "agent-harness"), { recursive: true });
    await writeFile(join(config, "agent-harness", "settings.json"), '{"retries": 0}');
    e2e.server.script(chatErrorReply(503, "busy"));
    const once = await e2e.agent(["Hi"], { XDG_CONFIG_HOME: config });
    expect(once.exitCode).toBe(1);
    expect(once.stderr).not.toContain("retrying");
    expect(e2e.server.requests).toHaveLength(1);
    e2e.server.script(
      chatErrorReply(503, "busy", { headers: { "retry-after": "0" } }),
      chatTextReply("Recovered."),
    );
    const again = await e2e.agent(["--retries", "1", "Hi"], { XDG_CONFIG_HOME: config });
    expect(again.exitCode).toBe(0);
    expect(stderrLines(again)).toContain(
      "agent: retrying in 0 s (1 of 1): server error (HTTP 503)",
    );
    expect(e2e.server.requests).toHaveLength(2);
  });

  it("gives up after the settings file's request timeout", async () => {
    const config = join(e2e.dir.root, "config");
    await mkdir(join(config, "agent-harness"), { recursive: true });
    await writeFile(join(config, "agent-harness", "settings.json"), '{"requestTimeout": 1}');
    e2e.server.script(NEVER_ANSWER);
    const run = await e2e.agent(["Hi"], { XDG_CONFIG_HOME: config, AGENT_RETRIES: "0" });
    expect(run.exitCode).toBe(1);
    expect(stderrLines(run).at(-1)).toBe(
      `agent: Model request to ${e2e.server.baseURL} timed out after 1 s`,
    );
  });

  it("agent config shows the request timeout and retries in effect and where each came from", async () => {
    const line = async (
      name: string,
      args: string[],
      env: Record<string, string>,
    ): Promise<string | undefined> => {
      const run = await runCli(["config", ...args], { env: serverEnv(e2e.server.baseURL, env) });
      return run.stdout.split("\n").find((row) => row.startsWith(`${name} `));
    };
    expect(await line("requestTimeout", [], {})).toBe("requestTimeout  600 s  (default)");
    expect(await line("requestTimeout", [], { AGENT_REQUEST_TIMEOUT: "30" })).toBe(
      "requestTimeout  30 s  (environment AGENT_REQUEST_TIMEOUT)",
    );
    expect(
      await line("requestTimeout", ["--request-timeout", "90"], { AGENT_REQUEST_TIMEOUT: "30" }),
    ).toBe("requestTimeout  90 s  (flag --request-timeout)");
    expect(await line("retries", [], {})).toBe("retries         2  (default)");
    expect(await line("retries", [], { AGENT_RETRIES: "4" })).toBe(
      "retries         4  (environment AGENT_RETRIES)",
    );
    expect(await line("retries", ["--retries", "0"], { AGENT_RETRIES: "4" })).toBe(
      "retries         0  (flag --retries)",
    );
  });

  it.skipIf(process.platform === "win32")(
    "stops at once on Ctrl-C during a retry's wait (POSIX only: Windows cannot send SIGINT)",
    async () => {
      // A minute's wait: only the signal can end this test within its timeout.
      e2e.server.script(chatErrorReply(503, "busy", { headers: { "retry-after": "60" } }));
      const cli = startCli(["--workspace", e2e.dir.workspace, "--prompt", "Hi"], {
        env: serverEnv(e2e.server.baseURL),
      });
      await new Promise<void>((resolve) => {
        let seen = "";
        cli.child.stderr.on("data", (chunk: string) => {
          seen += chunk;
          if (seen.includes("agent: retrying in 60 s (1 of 2)")) resolve();
        });
      });
      cli.child.kill("SIGINT");
      const run = await cli.done;
      expect(run.exitCode).toBe(130);
      expect(stderrLines(run)).toEqual([
        "agent: retrying in 60 s (1 of 2): server error (HTTP 503)",
        "agent: cancelled",
      ]);
      expect(e2e.server.requests).toHaveLength(1);
    },
  );
});
