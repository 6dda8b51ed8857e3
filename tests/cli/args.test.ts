import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SUBCOMMAND_HELP } from "../../src/cli/commands/subcommand-help.js";
import { HELP_TEXT, parseCliArgs, type CliOptions } from "../../src/cli/args.js";
import { CliConfigError } from "../../src/cli/config-error.js";
import { DEFAULT_RESOURCE_LIMITS } from "../../src/adapters/sandbox/index.js";
import {
  ALL_PROFILES,
  keepsAudit,
  NAMED_PROFILES,
  P01,
  P02,
  P03,
  P04,
} from "../../src/core/profiles.js";
import { SYSTEM_LANGUAGE } from "../support/system-language.js";

type Env = Readonly<Record<string, string | undefined>>;

function parse(argv: readonly string[], env: Env = {}): CliOptions {
  return parseCliArgs(argv, env, "/work/dir");
}

/** The exact one-line message of the configuration error, or a failure if none was thrown. */
function errorOf(argv: readonly string[], env: Env = {}): string {
  try {
    parse(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(CliConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error(`expected ${JSON.stringify(argv)} to be rejected`);
}

describe("parseCliArgs defaults", () => {
  it("gives chapter 3, 200 turns, the window by model name, the system's language, auto shell and sandbox, no log, normal verbosity", () => {
    expect(parse(["--prompt", "fix it"])).toEqual({
      help: false,
      version: false,
      prompt: "fix it",
      profile: P03,
      workspace: "/work/dir",
      model: undefined,
      maxTurns: 200,
      contextWindow: undefined,
      requestTimeoutMs: 600_000,
      retries: 2,
      commandTimeoutMs: 120_000,
      shell: "auto",
      lang: SYSTEM_LANGUAGE,
      sandbox: "auto",
      network: false,
      passEnv: [],
      sandboxLimits: DEFAULT_RESOURCE_LIMITS,
      sandboxUnmask: [],
      auditLog: undefined,
      record: undefined,
      replay: undefined,
      replayLenient: false,
      stateDir: undefined,
      quiet: false,
      verbose: false,
      outputFormat: "text",
    });
  });

  it("leaves the prompt undefined when absent (main reports it is required)", () => {
    expect(parse([]).prompt).toBeUndefined();
  });
});

describe("parseCliArgs flags", () => {
  it("reads every value flag", () => {
    const options = parse([
      "-p",
      "task",
      "--chapter",
      "3",
      "--workspace",
      "/ws",
      "--model",
      "gpt-x",
      "--max-turns",
      "7",
      "--shell",
      "posix",
      "--lang",
      "zh",
      "--sandbox",
      "required",
      "--network",
      "--pass-env",
      "GOPATH",
      "--pass-env",
      "_X1",
      "--audit-log",
      "audit.jsonl",
      "--record",
      "rec.jsonl",
      "--replay",
      "demo.jsonl",
      "--replay-lenient",
      "--state-dir",
      "/state",
      "--verbose",
      "--context-window",
      "16384",
      "--output-format",
      "stream-json",
      "--request-timeout",
      "90.5",
      "--retries",
      "0",
      "--command-timeout",
      "300",
    ]);
    expect(options).toEqual({
      help: false,
      version: false,
      prompt: "task",
      profile: P03,
      workspace: "/ws",
      model: "gpt-x",
      maxTurns: 7,
      contextWindow: 16384,
      requestTimeoutMs: 90_500,
      retries: 0,
      commandTimeoutMs: 300_000,
      shell: "posix",
      lang: "zh",
      sandbox: "required",
      network: true,
      passEnv: ["GOPATH", "_X1"],
      sandboxLimits: DEFAULT_RESOURCE_LIMITS,
      sandboxUnmask: [],
      auditLog: "audit.jsonl",
      record: "rec.jsonl",
      replay: "demo.jsonl",
      replayLenient: true,
      stateDir: "/state",
      quiet: false,
      verbose: true,
      outputFormat: "stream-json",
    });
  });

  it.each([
    [["--chapter", "1"], P01],
    [["--chapter", "2"], P02],
    [["--chapter=3"], P03],
    [["--chapter", "4"], P04],
  ] as const)("accepts %j as profile %#", (argv, profile) => {
    expect(parse(argv).profile).toBe(profile);
  });

  it.each([
    [["--command-timeout", "1"], 1000],
    [["--command-timeout=86400"], 86_400_000],
    [["--command-timeout", "600", "--command-timeout", "30"], 30_000],
  ] as const)("accepts %j as %i ms", (argv, ms) => {
    expect(parse(argv).commandTimeoutMs).toBe(ms);
  });

  it.each([
    ["1", 1],
    ["1000", 1000],
    ["020", 20],
  ])("accepts --max-turns %s", (raw, turns) => {
    expect(parse(["--max-turns", raw]).maxTurns).toBe(turns);
  });

  it.each(["auto", "powershell", "posix"] as const)("accepts --shell %s", (shell) => {
    expect(parse(["--shell", shell]).shell).toBe(shell);
  });

  it.each(["auto", "required", "off"] as const)("accepts --sandbox %s", (mode) => {
    expect(parse(["--sandbox", mode]).sandbox).toBe(mode);
  });

  it("reads --quiet alone", () => {
    const options = parse(["--quiet"]);
    expect([options.quiet, options.verbose]).toEqual([true, false]);
  });

  it("reads -h, --help, -v and --version", () => {
    expect(parse(["-h"]).help).toBe(true);
    expect(parse(["--help"]).help).toBe(true);
    expect(parse(["-v"]).version).toBe(true);
    expect(parse(["--version"]).version).toBe(true);
  });

  it("takes a prompt starting with a dash when written with =", () => {
    expect(parse(["--prompt=--explain this"]).prompt).toBe("--explain this");
  });
});

describe("parseCliArgs environment", () => {
  it.each([
    [{ LANG: "zh_CN.UTF-8" }, "zh"],
    [{ LANG: "ZH_TW" }, "zh"],
    [{ LANG: "en_US.UTF-8" }, "en"],
    [{ LANG: "C.UTF-8" }, "en"],
    [{}, SYSTEM_LANGUAGE],
    [{ LANG: "zh_CN.UTF-8", LC_MESSAGES: "en_US.UTF-8" }, "en"],
    [{ LANG: "en_US.UTF-8", LC_MESSAGES: "zh_CN.UTF-8" }, "zh"],
    [{ LANG: "en_US", LC_MESSAGES: "en_US", LC_ALL: "zh_CN.UTF-8" }, "zh"],
    [{ LANG: "zh_CN", LC_MESSAGES: "zh_CN", LC_ALL: "C" }, "en"],
    [{ LANG: "zh_CN", LC_ALL: "" }, "zh"],
    [{ LANG: "zh_CN", LC_MESSAGES: "  " }, "zh"],
  ] as const)("language from locale %j is %s", (env, lang) => {
    expect(parse([], env).lang).toBe(lang);
  });

  it("lets --lang override the locale", () => {
    expect(parse(["--lang", "en"], { LC_ALL: "zh_CN.UTF-8" }).lang).toBe("en");
    expect(parse(["--lang", "zh"], { LANG: "en_US.UTF-8" }).lang).toBe("zh");
  });

  it("reads the sandbox mode from AGENT_SANDBOX, and --sandbox wins over it", () => {
    expect(parse([], { AGENT_SANDBOX: "off" }).sandbox).toBe("off");
    expect(parse([], { AGENT_SANDBOX: "" }).sandbox).toBe("auto");
    expect(parse(["--sandbox", "required"], { AGENT_SANDBOX: "off" }).sandbox).toBe("required");
  });

  it("reads the audit log from AGENT_AUDIT_LOG, and --audit-log wins over it", () => {
    expect(parse([], { AGENT_AUDIT_LOG: "/var/log/a.jsonl" }).auditLog).toBe("/var/log/a.jsonl");
    expect(parse([], { AGENT_AUDIT_LOG: "" }).auditLog).toBeUndefined();
    expect(parse(["--audit-log", "b.jsonl"], { AGENT_AUDIT_LOG: "a.jsonl" }).auditLog).toBe(
      "b.jsonl",
    );
  });

  it("refuses an audit log in chapters 1 and 2, which keep no audit, naming where it came from", () => {
    const refused =
      "needs a profile that audits its decisions (chapter 3, chapter 4 or --profile daily), not chapter";
    expect(errorOf(["--chapter", "1", "--audit-log", "a.jsonl"])).toBe(`--audit-log ${refused} 1`);
    expect(errorOf(["--chapter", "2", "--audit-log", "a.jsonl"])).toBe(`--audit-log ${refused} 2`);
    expect(errorOf(["--chapter", "2"], { AGENT_AUDIT_LOG: "a.jsonl" })).toBe(
      `AGENT_AUDIT_LOG ${refused} 2`,
    );
    expect(parse(["--chapter", "2"], { AGENT_AUDIT_LOG: "" }).auditLog).toBeUndefined();
    expect(parse(["--chapter", "3", "--audit-log", "a.jsonl"]).auditLog).toBe("a.jsonl");
    expect(parse(["--chapter", "4", "--audit-log", "a.jsonl"]).auditLog).toBe("a.jsonl");
    expect(parse(["--profile", "daily", "--audit-log", "a.jsonl"]).auditLog).toBe("a.jsonl");
  });

  it("names in the refusal exactly the profiles that keep an audit", () => {
    const keeping = [
      ...ALL_PROFILES.filter(keepsAudit).map((profile) => `chapter ${String(profile.chapter)}`),
      ...NAMED_PROFILES.filter(keepsAudit).map((profile) => `--profile ${profile.name ?? ""}`),
    ];
    const named = `${keeping.slice(0, -1).join(", ")} or ${keeping.at(-1) ?? ""}`;
    expect(errorOf(["--chapter", "1", "--audit-log", "a.jsonl"])).toContain(`(${named})`);
    expect(HELP_TEXT).toContain(
      "(chapter 3 or 4,\n                          or --profile daily; $AGENT_AUDIT_LOG)",
    );
  });

  it("reads AGENT_CONTEXT_WINDOW, and the flag wins over it", () => {
    expect(parse([], { AGENT_CONTEXT_WINDOW: "65536" }).contextWindow).toBe(65536);
    expect(
      parse(["--context-window", "2048"], { AGENT_CONTEXT_WINDOW: "65536" }).contextWindow,
    ).toBe(2048);
    expect(parse([], { AGENT_CONTEXT_WINDOW: " " }).contextWindow).toBeUndefined();
    expect(errorOf([], { AGENT_CONTEXT_WINDOW: "lots" })).toBe(
      'AGENT_CONTEXT_WINDOW must be a whole number of tokens, at least 1024 (got "lots")',
    );
  });

  it("rejects a bad AGENT_SANDBOX naming the variable", () => {
    expect(errorOf([], { AGENT_SANDBOX: "maybe" })).toBe(
      'AGENT_SANDBOX must be one of auto, required, off (got "maybe")',
    );
  });
});

describe("parseCliArgs errors are one exact line", () => {
  it.each([
    [["--chapter", "5"], '--chapter must be 1, 2, 3 or 4 (got "5")'],
    [["--chapter", "03"], '--chapter must be 1, 2, 3 or 4 (got "03")'],
    [["--chapter="], '--chapter must be 1, 2, 3 or 4 (got "")'],
    [["--max-turns", "0"], '--max-turns must be a whole number from 1 to 1000 (got "0")'],
    [
      ["--context-window", "100"],
      '--context-window must be a whole number of tokens, at least 1024 (got "100")',
    ],
    [
      ["--context-window", "32k"],
      '--context-window must be a whole number of tokens, at least 1024 (got "32k")',
    ],
    [["--max-turns", "1001"], '--max-turns must be a whole number from 1 to 1000 (got "1001")'],
    [["--max-turns", "1e3"], '--max-turns must be a whole number from 1 to 1000 (got "1e3")'],
    [["--max-turns", "2.5"], '--max-turns must be a whole number from 1 to 1000 (got "2.5")'],
    [["--max-turns", " 5"], '--max-turns must be a whole number from 1 to 1000 (got " 5")'],
    [["--max-turns=-1"], '--max-turns must be a whole number from 1 to 1000 (got "-1")'],
    ...["0", "86401", "1.5", "2m", "1e3", "-1", " 5", ""].map((raw): [string[], string] => [
      [`--command-timeout=${raw}`],
      `--command-timeout must be a whole number of seconds from 1 to 86400 (got ${JSON.stringify(raw)})`,
    ]),
    [["--shell", "cmd"], '--shell must be one of auto, powershell, posix (got "cmd")'],
    [["--lang", "fr"], '--lang must be one of en, zh (got "fr")'],
    [["--sandbox", "on"], '--sandbox must be one of auto, required, off (got "on")'],
    [["--pass-env", "A-B"], '--pass-env takes a variable name (got "A-B")'],
    [["--pass-env", "1X"], '--pass-env takes a variable name (got "1X")'],
    [["--pass-env="], '--pass-env takes a variable name (got "")'],
    [["--prompt", "  "], "--prompt must not be empty"],
    [["--workspace="], "--workspace must not be empty"],
    [["--model="], "--model must not be empty"],
    [["--audit-log="], "--audit-log must not be empty"],
    [["--record="], "--record must not be empty"],
    [["--replay="], "--replay must not be empty"],
    [["--replay-lenient"], "--replay-lenient needs --replay"],
    [["--quiet", "--verbose"], "--quiet and --verbose cannot be used together"],
    [["--verbose", "--quiet"], "--quiet and --verbose cannot be used together"],
  ])("%j → %s", (argv, message) => {
    expect(errorOf(argv)).toBe(message);
  });

  it.each([
    [["--foo"], "Unknown option '--foo'"],
    [["-x"], "Unknown option '-x'"],
    [["--chapter"], "Option '--chapter <value>' argument missing"],
    [["-p"], "Option '-p, --prompt <value>' argument missing"],
    [["--quiet=yes"], "Option '--quiet' does not take an argument"],
    [["--network=false"], "Option '--network' does not take an argument"],
    [["--prompt", "-x"], "Option '--prompt' argument is ambiguous (write it as '--prompt=-XYZ')"],
  ])("rejects %j with %s", (argv, message) => {
    expect(errorOf(argv)).toBe(message);
  });

  it("does not cut a message at a full stop inside a quoted flag", () => {
    expect(errorOf(["--a.b"])).toBe("Unknown option '--a.b'");
  });
});

describe("parseCliArgs: the task as an argument", () => {
  it.each([
    [["fix the bug"], "fix the bug"],
    [["--chapter", "2", "fix the bug", "--quiet"], "fix the bug"],
    [["--", "--not-a-flag"], "--not-a-flag"],
    [["-p", "fix it"], "fix it"],
  ])("%j → prompt %j", (argv, prompt) => {
    expect(parse(argv).prompt).toBe(prompt);
  });

  it.each([
    [
      ["fix", "the", "bug"],
      'the task must be one argument: put it in quotes, e.g. agent "fix the bug" (got 3 arguments)',
    ],
    [
      ["--prompt", "a", "extra"],
      'the task was given twice (--prompt and "extra"): give it once, in quotes, e.g. agent "fix the bug" or agent --prompt "fix the bug"',
    ],
    [[" "], "the task must not be empty"],
  ])("rejects %j with %s", (argv, message) => {
    expect(errorOf(argv)).toBe(message);
  });
});

describe("parseCliArgs: the default workspace is where the person ran the command", () => {
  const npmRunAgent = { npm_lifecycle_event: "agent", npm_package_name: "agent-harness" };

  it("is INIT_CWD under `npm run agent`, which runs scripts from the package root", () => {
    expect(parse(["task"], { ...npmRunAgent, INIT_CWD: "/home/me/project" }).workspace).toBe(
      "/home/me/project",
    );
  });

  it.each([
    ["another package's script", { npm_lifecycle_event: "agent", npm_package_name: "mono" }],
    ["another script of ours", { npm_lifecycle_event: "test", npm_package_name: "agent-harness" }],
    ["no npm script at all", {}],
  ])("is the current directory when INIT_CWD was inherited from %s", (_, npm) => {
    expect(parse(["task"], { ...npm, INIT_CWD: "/home/me/mono" }).workspace).toBe("/work/dir");
  });

  it("is the current directory without npm (or with an empty INIT_CWD)", () => {
    expect(parse(["task"]).workspace).toBe("/work/dir");
    expect(parse(["task"], { ...npmRunAgent, INIT_CWD: "" }).workspace).toBe("/work/dir");
  });

  it("is whatever --workspace says, INIT_CWD or not", () => {
    expect(parse(["--workspace", "/ws", "task"], { INIT_CWD: "/home/me" }).workspace).toBe("/ws");
  });
});

describe("HELP_TEXT", () => {
  it("names agent runs and agent resume, the state directory and every exit code", () => {
    expect(HELP_TEXT).toContain(
      "       agent runs [--workspace <dir>] [--state-dir <dir>]\n                  [--limit <n> | --all] [--json]\n",
    );
    expect(HELP_TEXT).toContain("       agent resume [<run-id>] [options]\n");
    expect(HELP_TEXT).toContain("  agent runs              This workspace's runs, newest first");
    expect(HELP_TEXT).toContain("  agent resume [<id>]     Go on with a run");
    expect(HELP_TEXT).toContain("  agent resume --last     The newest run whatever its state");
    expect(HELP_TEXT).toContain("--state-dir <dir>");
    expect(HELP_TEXT).toContain(
      "Exit codes: 0 answer printed, 1 run failed, 2 configuration error (or nothing\nto resume), 3 waiting for an approval (chapter 4), 4 piped run answered but\nevery tool call was denied, 129 terminal closed (SIGHUP), 130 Ctrl-C, 141 stderr\nclosed, 143 stopped (SIGTERM).",
    );
  });

  it("says which run agent resume takes by default, as the README and agent resume --help do", () => {
    // What runToResume (src/bootstrap/open/resume-plan.ts) picks.
    const said =
      "the newest if it is unfinished, waiting or failed, else the newest unfinished or waiting one";
    const oneLine = (text: string | undefined): string => (text ?? "").replace(/\s+/gu, " ");
    expect(HELP_TEXT).toContain(
      [
        "  agent resume [<id>]     Go on with a run after a crash or kill (default: the",
        "                          newest if it is unfinished, waiting or failed, else",
        "                          the newest unfinished or waiting one); a call that",
        "                          was running is reported unknown to the model, never",
        "                          run again.",
      ].join("\n"),
    );
    expect(oneLine(SUBCOMMAND_HELP.get("resume"))).toContain(`(default: ${said}).`);
    expect(oneLine(readFileSync(new URL("../../README.md", import.meta.url), "utf8"))).toContain(
      "`agent resume` goes on with the newest run if it is unfinished, waiting or failed, else the newest unfinished or waiting one, saying so",
    );
  });

  it("names every run option agent resume refuses (resume.ts takes them from the journal)", () => {
    const oneLine = (text: string | undefined): string => (text ?? "").replace(/\s+/gu, " ");
    const refused = "except --prompt, --chapter, --profile and --model (the run's own)";
    expect(oneLine(HELP_TEXT)).toContain(`Takes the run options above ${refused}`);
    expect(oneLine(SUBCOMMAND_HELP.get("resume"))).toContain(
      `Takes the run options (agent --help) ${refused}`,
    );
  });

  it("starts each runs row's description in the same column", () => {
    const rows = HELP_TEXT.split("\n").filter((line) =>
      /^ {2}agent (runs|resume|undo)\b/.test(line),
    );
    expect(rows.map((line) => line.slice(0, 26).trimEnd())).toEqual([
      "  agent runs",
      "  agent resume [<id>]",
      "  agent resume --last",
      "  agent undo [N]",
    ]);
    expect(rows.map((line) => /^ {2}\S.*?\s{2,}(?=\S)/.exec(line)?.[0].length)).toEqual([
      26, 26, 26, 26,
    ]);
  });

  it("fits an 80-column terminal", () => {
    const wide = HELP_TEXT.split("\n").filter((line) => line.length > 80);
    expect(wide).toEqual([]);
  });

  it("names every slash command of a conversation", () => {
    expect(HELP_TEXT).toContain(
      "/help lists its commands (/model, /clear, /compact, /context, /usage, /undo,\n/mcp, /permissions with --profile daily, /exit).",
    );
  });

  it("says which directory is the default workspace", () => {
    expect(HELP_TEXT).toContain("$INIT_CWD under npm, else the");
  });
});

describe("sandbox settings", () => {
  it("reads limits from the variable, then the flags over it, and credentials to un-mask", () => {
    const options = parse(
      [
        "--sandbox-limit",
        "memory=512MiB",
        "--sandbox-limit",
        "open-files=unlimited",
        "--sandbox-unmask",
        "~/.npmrc",
        "--sandbox-unmask",
        ".config/gh/",
        "task",
      ],
      { AGENT_SANDBOX_LIMITS: "memory=8GiB, processes=256" },
    );
    expect(options.sandboxLimits).toEqual({
      ...DEFAULT_RESOURCE_LIMITS,
      memory: 512 * 1024 ** 2,
      processes: 256,
      "open-files": undefined,
    });
    expect(options.sandboxUnmask).toEqual([".npmrc", ".config/gh"]);
  });

  it("takes ~/.npmrc as the shell hands it over, expanded to $HOME/.npmrc", () => {
    const options = parse(["--sandbox-unmask", "/home/me/.npmrc", "task"], { HOME: "/home/me/" });
    expect(options.sandboxUnmask).toEqual([".npmrc"]);
    expect(
      parse(["--sandbox-unmask", "C:\\Users\\me\\.config\\gh", "task"], {
        USERPROFILE: "C:\\Users\\me",
      }).sandboxUnmask,
    ).toEqual([".config/gh"]);
    expect(errorOf(["--sandbox-unmask", "/home/other/.npmrc", "task"], { HOME: "/home/me" })).toBe(
      '--sandbox-unmask takes one of the masked paths (.ssh, .gnupg, .aws, .azure, .config/gcloud, .kube, … see docs/sandbox.md), relative to your home directory (got "/home/other/.npmrc")',
    );
  });

  it.each([
    [
      ["--sandbox-limit", "memory=lots", "task"],
      {},
      '--sandbox-limit memory must be from 64 MiB to 1 TiB (e.g. 512MiB, 4GiB) or "unlimited" (got "lots")',
    ],
    [
      ["--sandbox-limit", "disk=1GiB", "task"],
      {},
      '--sandbox-limit takes NAME=VALUE with NAME one of memory, processes, file-size, cpu-time, open-files (got "disk=1GiB")',
    ],
    [
      ["task"],
      { AGENT_SANDBOX_LIMITS: "processes=3" },
      'AGENT_SANDBOX_LIMITS processes must be from 16 to 1000000 or "unlimited" (got "3")',
    ],
    [
      ["--sandbox-unmask", ".vimrc", "task"],
      {},
      '--sandbox-unmask takes one of the masked paths (.ssh, .gnupg, .aws, .azure, .config/gcloud, .kube, … see docs/sandbox.md), relative to your home directory (got ".vimrc")',
    ],
  ])("refuses %j (%j) as a configuration error", (argv, env, message) => {
    expect(errorOf(argv, env)).toBe(message);
  });
});
