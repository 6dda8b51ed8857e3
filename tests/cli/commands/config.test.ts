/**
 * `agent config` decides the settings as a run does, and says what the run would refuse of them
 * the way the run says it: a personal rule that could never decide a call is the run's own
 * configuration error, exit 2, before anything is printed. The context window it shows is the
 * number the run's budget uses, and where that came from.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configCommand } from "../../../src/cli/commands/config.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;
let home: string;
let file: string;
beforeEach(async () => {
  temp = await makeTempWorkspace();
  home = join(temp.base, "home");
  await mkdir(join(home, ".config", "agent-harness"), { recursive: true });
  file = join(home, ".config", "agent-harness", "settings.json");
});
afterEach(async () => {
  await temp.cleanup();
});

async function config(
  settings: object,
  args: readonly string[] = [],
): Promise<{ code: number; out: string; err: string }> {
  await writeFile(file, JSON.stringify(settings));
  return runCapturedSubcommand(configCommand, args, { home, cwd: temp.ws });
}

describe("agent config and the person's rules", () => {
  it("refuses a rule the run would refuse, in the run's words, exit 2", async () => {
    const run = await config({
      profile: "daily",
      rules: [{ behavior: "allow", tool: "Shell", argv: ["ls"] }],
    });
    expect(run).toEqual({
      code: 2,
      out: "",
      err: `agent: your settings file's rules[0] (allow Shell ls …): there is no tool "Shell" in this profile (its tools: shell, read_file, write_file, edit_file, glob, grep)\n`,
    });
  });

  it("names the rule by its place in the file, after a usable one", async () => {
    const run = await config({
      profile: "daily",
      rules: [
        { behavior: "allow", tool: "shell", argv: ["ls"] },
        { behavior: "deny", tool: "read_file", argv: ["cat"] },
      ],
    });
    expect(run).toEqual({
      code: 2,
      out: "",
      err: "agent: your settings file's rules[1] (deny read_file cat …): argv is for a command tool; read_file takes a path\n",
    });
  });

  it.each([
    [
      { behavior: "deny", tool: "shell", argv: ["git push"] },
      '(deny shell ["git push"] …): argv\'s word "git push"',
      '["git","push"]',
    ],
    [
      { behavior: "allow", tool: "shell", argv: ["npm test"] },
      '(allow shell ["npm test"] …): argv\'s word "npm test"',
      '["npm","test"]',
    ],
    [
      { behavior: "deny", tool: "shell", argv: ["git", "commit", "-m", "WIP stuff"] },
      '(deny shell ["git","commit","-m","WIP stuff"] …): argv\'s word "WIP stuff"',
      '["git","commit","-m","WIP","stuff"]',
    ],
  ])(
    "refuses a command rule whose words run together: %j would never decide a call",
    async (rule, named, apart) => {
      const run = await config({ profile: "daily", rules: [rule] });
      expect(run).toEqual({
        code: 2,
        out: "",
        err: `agent: your settings file's rules[0] ${named} holds a blank, and a rule compares a command word by word: write the words apart, ${apart}\n`,
      });
    },
  );

  it("counts usable rules, and rules a profile without them does not use", async () => {
    const daily = await config({
      profile: "daily",
      rules: [{ behavior: "allow", tool: "shell", argv: ["ls"] }],
    });
    expect(daily).toEqual({
      code: 0,
      out: shown([
        "chapter         3  (from profile daily, settings file)",
        "profile         daily  (settings file)",
        ...SANDBOX_TO_RETRIES,
        "rules           1 of your own  (settings file)",
      ]),
      err: "",
    });
    // Chapter 2 takes no rules: the run does not refuse them, and neither does config.
    const unused = await config({ rules: [{ behavior: "allow", tool: "Shell", argv: ["ls"] }] }, [
      "--chapter",
      "2",
    ]);
    expect(unused).toEqual({
      code: 0,
      out: shown([
        "chapter         2  (flag --chapter)",
        ...SANDBOX_TO_RETRIES,
        "rules           1 of your own (not used by this profile)  (settings file)",
      ]),
      err: "",
    });
  });
});

describe("agent config's context window", () => {
  // What /context says it is `of`: the run's budget uses the same number.
  it.each([
    [
      "an unknown model name's: the default",
      { model: "fake-1" },
      [],
      "contextWindow   32768 tokens  (default, for a model name it does not know)",
    ],
    [
      "a known model name's",
      { model: "qwen2.5-coder:7b" },
      [],
      "contextWindow   32768 tokens  (default, from the model's name)",
    ],
    [
      "the one given",
      { model: "fake-1", contextWindow: 50_000 },
      ["--context-window", "2048"],
      "contextWindow   2048 tokens  (flag --context-window)",
    ],
    [
      "the settings file's",
      { model: "fake-1", contextWindow: 50_000 },
      [],
      "contextWindow   50000 tokens  (settings file)",
    ],
  ] as const)("is the number the run uses: %s", async (_, settings, args, line) => {
    const run = await config(settings, args);
    expect(run).toEqual({
      code: 0,
      out: [
        `settings file: ${file}`,
        `model           ${settings.model}  (settings file)`,
        "baseURL         https://api.openai.com/v1  (default)",
        "chapter         3  (default)",
        "sandbox         auto  (default)",
        "network         false  (default)",
        "language        en  (default, from $LANG)",
        line,
        "requestTimeout  600 s  (default)",
        "retries         2  (default)",
        "commandTimeout  120 s  (default)",
        ...runOnly(),
        "apiKey          not set  (environment OPENAI_API_KEY)",
        "",
      ].join("\n"),
      err: "",
    });
  });
});

const SANDBOX_TO_RETRIES = [
  "sandbox         auto  (default)",
  "network         false  (default)",
  "language        en  (default, from $LANG)",
  "contextWindow   1047576 tokens  (default, from the model's name)",
  "requestTimeout  600 s  (default)",
  "retries         2  (default)",
  "commandTimeout  120 s  (default)",
];

/** The whole of what config prints, `middle` between the model's lines and the API key's. */
function shown(middle: readonly string[]): string {
  return [
    `settings file: ${file}`,
    "model           gpt-4.1-mini  (default)",
    "baseURL         https://api.openai.com/v1  (default)",
    ...middle,
    ...runOnly(),
    "apiKey          not set  (environment OPENAI_API_KEY)",
    "",
  ].join("\n");
}

/** The settings a run takes only from a flag or the environment, as they are by default. */
function runOnly(): string[] {
  return [
    `stateDir        ${join(home, ".local", "state", "agent-harness")}  (default)`,
    "auditLog        none  (default)",
    "sandboxLimits   memory 4 GiB, processes 1024, file-size 2 GiB, cpu-time 600 s, open-files 4096  (default)",
  ];
}

describe("agent config names every setting a run decides, and where it came from", () => {
  it("a chapter a named profile decides says so, whatever chapter the file names", async () => {
    const run = await config({ chapter: 4 }, ["--profile", "daily"]);
    expect(run.out).toContain("\nchapter         3  (from profile daily, flag --profile)\n");
    expect(run.out).toContain("\nprofile         daily  (flag --profile)\n");
  });

  it.each([
    ["the default", {}, [], "120 s  (default)"],
    ["the settings file's", { commandTimeout: 900 }, [], "900 s  (settings file)"],
    [
      "a flag over the settings file's",
      { commandTimeout: 900 },
      ["--command-timeout", "30"],
      "30 s  (flag --command-timeout)",
    ],
    ["a flag's", {}, ["--command-timeout=3600"], "3600 s  (flag --command-timeout)"],
  ] as const)("the command timeout and its origin: %s", async (_, settings, args, shown) => {
    const run = await config(settings, args);
    expect(run.code).toBe(0);
    expect(run.out).toContain(`\ncommandTimeout  ${shown}\n`);
  });

  it("a bad --command-timeout is the run's configuration error, exit 2, one line", async () => {
    const run = await config({}, ["--command-timeout", "0"]);
    expect(run).toEqual({
      code: 2,
      out: "",
      err: 'agent: --command-timeout must be a whole number of seconds from 1 to 86400 (got "0") (see --help)\n',
    });
  });

  it.each([
    [
      "an absolute XDG_STATE_HOME",
      "/var/state",
      "/var/state/agent-harness  (environment XDG_STATE_HOME)",
    ],
    ["a relative one, which the run ignores", "state", "/.local/state/agent-harness  (default)"],
  ])("the state directory's origin is the run's rule: %s", async (_, xdg, shown) => {
    await writeFile(file, "{}");
    const run = await runCapturedSubcommand(configCommand, [], {
      home,
      cwd: temp.ws,
      env: { XDG_STATE_HOME: xdg },
    });
    const line = run.out.split("\n").find((row) => row.startsWith("stateDir"));
    expect(line?.endsWith(shown)).toBe(true);
  });

  it("the state directory, the audit log and the sandbox's limits, from flags or the environment", async () => {
    const state = join(temp.base, "state");
    await writeFile(file, "{}");
    const run = await runCapturedSubcommand(
      configCommand,
      ["--state-dir", state, "--sandbox-limit", "memory=1GiB"],
      {
        home,
        cwd: temp.ws,
        env: { AGENT_AUDIT_LOG: "/tmp/audit.jsonl", AGENT_SANDBOX_LIMITS: "processes=64" },
      },
    );
    expect(run.code).toBe(0);
    expect(run.out).toContain(`\nstateDir        ${state}  (flag --state-dir)\n`);
    expect(run.out).toContain(
      "\nauditLog        /tmp/audit.jsonl  (environment AGENT_AUDIT_LOG)\n",
    );
    expect(run.out).toContain(
      "\nsandboxLimits   memory 1 GiB, processes 64, file-size 2 GiB, cpu-time 600 s, open-files 4096  (environment AGENT_SANDBOX_LIMITS and flag --sandbox-limit)\n",
    );
  });
});
