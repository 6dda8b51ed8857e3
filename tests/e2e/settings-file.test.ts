/** The settings file end to end: a run uses it, `agent config` shows each value's origin. */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NEVER_ANSWER, chatErrorReply, chatTextReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv, stderrLines, testStateDirectory } from "./cli-process.js";

const e2e = useAgentFixture();

async function settings(values: object | string): Promise<string> {
  const config = join(e2e.dir.root, "config");
  await mkdir(join(config, "agent-harness"), { recursive: true });
  await writeFile(
    join(config, "agent-harness", "settings.json"),
    typeof values === "string" ? values : JSON.stringify(values),
  );
  return config;
}

describe("the settings file", () => {
  it("a run asks the file's model unless the environment or a flag says otherwise", async () => {
    const config = await settings({ model: "from-file" });
    e2e.server.script(chatTextReply("A."), chatTextReply("B."));
    await e2e.agent(["Hi"], { XDG_CONFIG_HOME: config });
    await e2e.agent(["--model", "from-flag", "Hi"], { XDG_CONFIG_HOME: config });
    expect(e2e.server.requests.map((request) => request.model)).toEqual(["from-file", "from-flag"]);
  });

  it("agent config prints each value and its origin, never the key", async () => {
    const config = await settings({
      model: "from-file",
      chapter: 2,
      requestTimeout: 600,
      retries: 5,
    });
    const run = await runCli(["config", "--sandbox", "off"], {
      env: serverEnv(e2e.server.baseURL, { XDG_CONFIG_HOME: config, OPENAI_MODEL: "" }),
    });
    expect(run.exitCode).toBe(0);
    const file = join(config, "agent-harness", "settings.json");
    expect(run.stdout).toBe(
      [
        `settings file: ${file}`,
        "model           from-file  (settings file)",
        `baseURL         ${e2e.server.baseURL}  (environment OPENAI_BASE_URL)`,
        "chapter         2  (settings file)",
        "sandbox         off  (flag --sandbox)",
        "network         false  (default)",
        "language        en  (default, from $LANG)",
        "contextWindow   32768 tokens  (default, for a model name it does not know)",
        "requestTimeout  600 s  (settings file)",
        "retries         5  (settings file)",
        "commandTimeout  120 s  (default)",
        `stateDir        ${testStateDirectory()}  (environment AGENT_STATE_DIR)`,
        "auditLog        none  (default)",
        "sandboxLimits   memory 4 GiB, processes 1024, file-size 2 GiB, cpu-time 600 s, open-files 4096  (default)",
        "apiKey          set (value not shown)  (environment OPENAI_API_KEY)",
        "",
      ].join("\n"),
    );
    expect(run.stdout).not.toContain("test-key");
  });

  it("agent config lists a file's MCP servers, and says when the file is empty or missing", async () => {
    const config = await settings({
      mcpServers: {
        tracker: { command: "npx", args: ["-y", "@example/tracker-mcp"] },
        notes: { command: "node", args: ["notes.js"] },
      },
    });
    const file = join(config, "agent-harness", "settings.json");
    const env = serverEnv(e2e.server.baseURL, { XDG_CONFIG_HOME: config, OPENAI_MODEL: "" });
    const shown = async (args: string[]): Promise<string[]> => {
      const run = await runCli(["config", ...args], { env });
      expect(run.exitCode).toBe(0);
      return run.stdout.split("\n").filter((line) => /^(settings file:|mcpServers )/.test(line));
    };
    expect(await shown([])).toEqual([
      `settings file: ${file}`,
      "mcpServers      tracker, notes (2) (not used by this profile)  (settings file)",
    ]);
    expect(await shown(["--profile", "daily"])).toEqual([
      `settings file: ${file}`,
      "mcpServers      tracker, notes (2)  (settings file)",
    ]);
    await settings({});
    expect(await shown([])).toEqual([`settings file: ${file} (no settings in it)`]);
    await rm(file);
    expect(await shown([])).toEqual([`settings file: ${file} (no such file)`]);
  });

  it("a broken file stops a run with a configuration error naming the file and field", async () => {
    const config = await settings({ chapter: "three" });
    const before = e2e.server.rawRequests.length;
    const run = await e2e.agent(["Hi"], { XDG_CONFIG_HOME: config });
    const file = join(config, "agent-harness", "settings.json");
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^agent: settings file ${file}: field chapter: `));
    expect(e2e.server.rawRequests).toHaveLength(before);
  });

  it("a retries value out of bounds is a configuration error, and agent config says so too", async () => {
    const config = await settings({ retries: 11 });
    const file = join(config, "agent-harness", "settings.json");
    const before = e2e.server.rawRequests.length;
    const run = await e2e.agent(["Hi"], { XDG_CONFIG_HOME: config });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^agent: settings file ${file}: field retries: `));
    expect(e2e.server.rawRequests).toHaveLength(before);
    const shown = await runCli(["config"], {
      env: serverEnv(e2e.server.baseURL, { XDG_CONFIG_HOME: config }),
    });
    expect(shown.exitCode).toBe(2);
    expect(shown.stderr).toMatch(new RegExp(`^agent: settings file ${file}: field retries: `));
  });
});

describe("a base URL with a password", () => {
  it("in the settings file: the run and agent config name the file's field and never show the password", async () => {
    const config = await settings({ baseURL: "http://user:hunter2secret@127.0.0.1:9/v1" });
    const file = join(config, "agent-harness", "settings.json");
    const env = { XDG_CONFIG_HOME: config, OPENAI_BASE_URL: "", OPENAI_API_KEY: "" };
    const run = await runCli(["Hi"], { env: serverEnv(e2e.server.baseURL, env) });
    const shown = await runCli(["config"], { env: serverEnv(e2e.server.baseURL, env) });
    for (const result of [run, shown]) {
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(
        `agent: settings file ${file}: field baseURL: must not contain a user name or password\n`,
      );
      expect(result.stdout).toBe("");
    }
  });

  it("in OPENAI_BASE_URL: agent config shows it masked, and the run's error names the variable without the password", async () => {
    const env = { OPENAI_BASE_URL: "http://user:hunter2secret@127.0.0.1:9/v1" };
    const shown = await runCli(["config"], { env: serverEnv(e2e.server.baseURL, env) });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain(
      "baseURL         http://***@127.0.0.1:9/v1  (environment OPENAI_BASE_URL)\n",
    );
    const run = await runCli(["Hi"], { env: serverEnv(e2e.server.baseURL, env) });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe("agent: OPENAI_BASE_URL must not contain a user name or password\n");
    const malformed = await runCli(["Hi"], {
      env: serverEnv(e2e.server.baseURL, {
        OPENAI_BASE_URL: "http://user:hunter2secret@host:99999/v1",
      }),
    });
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toBe(
      'agent: OPENAI_BASE_URL is not a valid URL: "http://***@host:99999/v1"\n',
    );
  });
});

describe("every command decides from the same settings", () => {
  it('with {"chapter": 4} in the file, agent explain explains chapter 4, as the run is', async () => {
    const config = await settings({ chapter: 4 });
    const call = ["write_file", '{"path":"a.txt","content":"x"}'];
    const workspace = ["--workspace", e2e.dir.workspace];
    const fromFile = await runCli(["explain", ...call, ...workspace], {
      env: serverEnv(e2e.server.baseURL, { XDG_CONFIG_HOME: config }),
    });
    const fromFlag = await runCli(["explain", ...call, "--chapter", "4", ...workspace], {
      env: serverEnv(e2e.server.baseURL),
    });
    expect(fromFile.stderr).toBe("");
    expect(fromFile.exitCode).toBe(0);
    // The same verdicts, boundary by boundary; only the echoed command line differs.
    expect(fromFile.stdout.split("\n").slice(1)).toEqual(fromFlag.stdout.split("\n").slice(1));
    expect(fromFile.stdout).not.toContain("the person is asked [y/N]");
    const config4 = await runCli(["config"], {
      env: serverEnv(e2e.server.baseURL, { XDG_CONFIG_HOME: config }),
    });
    expect(config4.stdout).toContain("chapter         4  (settings file)\n");
  });

  it("agent resume talks to the file's endpoint, with the file's retries and request timeout", async () => {
    const state = join(e2e.dir.root, "state");
    e2e.server.script(chatErrorReply(503, "busy"));
    const failed = await e2e.agent(["--retries", "0", "Say done"], { AGENT_STATE_DIR: state });
    expect(failed.exitCode, failed.stderr).toBe(1);
    const config = await settings({
      baseURL: e2e.server.baseURL,
      requestTimeout: 1,
      retries: 1,
    });
    // Only the file names the endpoint: the environment leaves it unset.
    const env = { XDG_CONFIG_HOME: config, AGENT_STATE_DIR: state, OPENAI_BASE_URL: "" };
    e2e.server.script(
      chatErrorReply(503, "busy", { headers: { "retry-after": "0" } }),
      NEVER_ANSWER,
    );
    const resumed = await runCli(["resume", "--workspace", e2e.dir.workspace], {
      env: serverEnv(e2e.server.baseURL, env),
    });
    expect(resumed.exitCode, resumed.stderr).toBe(1);
    const lines = stderrLines(resumed);
    expect(lines).toContain("agent: retrying in 0 s (1 of 1): server error (HTTP 503)");
    // The file's endpoint answered (no other is set), one retry, then the file's 1 s timeout.
    expect(lines.at(-1)).toBe(
      `agent: Model request to ${e2e.server.baseURL} timed out after 1 s (2 attempts)`,
    );
    // agent config prints the values the resumed run used, each from the file.
    const shown = await runCli(["config"], { env: serverEnv(e2e.server.baseURL, env) });
    expect(shown.stdout).toContain(`baseURL         ${e2e.server.baseURL}  (settings file)\n`);
    expect(shown.stdout).toContain("requestTimeout  1 s  (settings file)\n");
    expect(shown.stdout).toContain("retries         1  (settings file)\n");
  });
});
