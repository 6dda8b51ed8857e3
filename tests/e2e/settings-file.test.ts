/** The settings file end to end: a run uses it, `agent config` shows each value's origin. */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv } from "./cli-process.js";

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
        "language        en  (default (from $LANG))",
        "contextWindow   known from the model's name  (default)",
        "requestTimeout  600 s  (settings file)",
        "retries         5  (settings file)",
        "apiKey          set (value not shown)  (environment OPENAI_API_KEY)",
        "",
      ].join("\n"),
    );
    expect(run.stdout).not.toContain("test-key");
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
