/**
 * The daily profile end to end below the terminal: its settings come from the person's file only,
 * its tools add grep, an `a` answer covers exactly the same action, and a personal deny wins.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BootstrapError } from "../../src/bootstrap/bootstrap-error.js";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import { shellCommandBinding } from "../../src/adapters/commands/index.js";
import { UnbindableCommandError } from "../../src/core/grants/unbindable-command.js";
import { parseCliArgs } from "../../src/cli/args.js";
import { CliConfigError } from "../../src/cli/config-error.js";
import { resolveSettings } from "../../src/cli/settings/resolve-settings.js";
import { PermissionDecision } from "../../src/core/policy/permission-decision.js";
import type { PermissionRequest } from "../../src/core/policy/permission-request.js";
import type { PersonalRuleSpec } from "../../src/core/policy/personal-rules.js";
import type { RunApprovalAnswer } from "../../src/core/policy/run-grants.js";
import { DAILY, P03 } from "../../src/core/profiles.js";
import { FixedEnvironment, RecordingAuditSink } from "../support/permission-fakes.js";
import { RecordingCommandRunner } from "../support/recording-command-runner.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../support/scripted-model.js";
import { toolMessages } from "../support/tool-messages.js";

let home: string;

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), "daily-")));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function withFile(values: object): Record<string, string> {
  mkdirSync(join(home, ".config", "agent-harness"), { recursive: true });
  writeFileSync(join(home, ".config", "agent-harness", "settings.json"), JSON.stringify(values));
  return { HOME: home };
}

const host = (env: Record<string, string>, cwd = home) => ({
  env,
  platform: "linux" as const,
  cwd,
});

/** A terminal that answers every `[y/N/a]` the same way and records what it was asked. */
class AnswersEvery {
  readonly asked: string[] = [];
  /** The reason each question gave the person. */
  readonly reasons: string[] = [];
  readonly #answer: "a" | "n";
  constructor(answer: "a" | "n") {
    this.#answer = answer;
  }
  decide(): Promise<PermissionDecision> {
    return Promise.reject(new Error("the daily profile asks [y/N/a]"));
  }
  decideForRun(request: PermissionRequest): Promise<RunApprovalAnswer> {
    request.askingPerson();
    this.asked.push(JSON.stringify(request.call.arguments));
    this.reasons.push(request.proposedDecision?.reason ?? "");
    return Promise.resolve(
      this.#answer === "a"
        ? {
            decision: PermissionDecision.allow("User approved this tool call", "terminal-approval"),
            forRun: true,
          }
        : {
            decision: PermissionDecision.deny("User denied this tool call", "terminal-approval"),
            forRun: false,
          },
    );
  }
}

describe("choosing the daily profile", () => {
  it("--profile daily, or profile in the settings file; a flag's chapter beats the file", () => {
    expect(parseCliArgs(["--profile", "daily"], {}, "/ws").profile).toBe(DAILY);
    expect(() => parseCliArgs(["--profile", "daily", "--chapter", "3"], {}, "/ws")).toThrow(
      new CliConfigError("--profile and --chapter both choose the profile: give one of them"),
    );
    expect(() => parseCliArgs(["--profile", "nightly"], {}, "/ws")).toThrow(
      new CliConfigError('--profile must be daily (got "nightly")'),
    );
    const env = withFile({ profile: "daily", chapter: 2 });
    const fromFile = resolveSettings([], host(env));
    expect(fromFile.options.profile).toBe(DAILY);
    expect(fromFile.origins.profile).toBe("settings file");
    expect(resolveSettings(["--chapter", "3"], host(env)).options.profile).toBe(P03);
  });

  it("takes personal rules from the person's file only, never from the workspace", () => {
    const workspace = join(home, "project");
    for (const place of [".agent", ".config/agent-harness", "."]) {
      mkdirSync(join(workspace, place), { recursive: true });
      writeFileSync(
        join(workspace, place, "settings.json"),
        JSON.stringify({
          profile: "daily",
          rules: [{ behavior: "allow", tool: "shell", argv: ["rm"] }],
        }),
      );
    }
    const settings = resolveSettings(["--workspace", workspace], host({ HOME: home }, workspace));
    expect(settings.options.profile).toBe(P03);
    expect(settings.options.personalRules).toBeUndefined();
    const rules = [{ behavior: "deny", tool: "shell", argv: ["git", "push"] }];
    const own = resolveSettings(["--profile", "daily"], host(withFile({ rules }), workspace));
    expect(own.options.personalRules).toEqual(rules);
  });
});

describe("buildAgent with the daily profile", () => {
  const base = {
    workspace: "/nonexistent-workspace-for-offline-tests",
  };

  it("offers chapter 3's tools and grep", async () => {
    const model = new ScriptedModelClient([textReply("hi")]);
    await buildAgent(DAILY, {
      ...base,
      model,
      commandRunner: new RecordingCommandRunner(),
      approvalProvider: new AnswersEvery("a"),
      auditSink: new RecordingAuditSink(),
    }).run("hello");
    expect((model.requests[0]?.tools ?? []).map((tool) => tool.name)).toEqual([
      "shell",
      "read_file",
      "write_file",
      "edit_file",
      "glob",
      "grep",
    ]);
  });

  it("three identical test runs ask once; a personal deny is never asked and never runs", async () => {
    const runner = new RecordingCommandRunner();
    const terminal = new AnswersEvery("a");
    const audit = new RecordingAuditSink();
    const test = (id: string) => ({ id, name: "shell", arguments: { command: "npx ava" } });
    const model = new ScriptedModelClient([
      toolCallReply([test("t1")]),
      toolCallReply([test("t2")]),
      toolCallReply([test("t3")]),
      toolCallReply([{ id: "p1", name: "shell", arguments: { command: "git push" } }]),
      textReply("done"),
    ]);
    await buildAgent(DAILY, {
      ...base,
      model,
      commandRunner: runner,
      approvalProvider: terminal,
      auditSink: audit,
      runAnswers: {
        personalRules: [
          { behavior: "allow", tool: "shell", argv: ["git"] },
          { behavior: "deny", tool: "shell", argv: ["git", "push"] },
        ],
      },
      // A command is kept for the run only where it runs in the sandbox.
      executionEnvironment: new FixedEnvironment(() => ({
        kind: "isolated",
        network: "disabled",
        label: "sandbox",
      })),
    }).run("go");
    expect(terminal.asked).toEqual(['{"command":"npx ava"}']);
    expect(runner.commands).toEqual(["npx ava", "npx ava", "npx ava"]);
    expect(
      audit.entries.map(({ decision }) => `${decision.behavior} (${decision.source})`),
    ).toEqual([
      "allow (terminal-approval)",
      "allow (run-grant)",
      "allow (run-grant)",
      "deny (personal-rule)",
    ]);
  });

  it("the one answered at the prompt; not its repeats under `a`, nor one a rule lets run", async () => {
    const runner = new RecordingCommandRunner();
    const terminal = new AnswersEvery("a");
    const shell = (id: string, command: string) => ({ id, name: "shell", arguments: { command } });
    const model = new ScriptedModelClient([
      toolCallReply([shell("t1", "npx ava")]),
      toolCallReply([shell("t2", "npx ava")]),
      toolCallReply([shell("s1", "git status")]),
      textReply("done"),
    ]);
    await buildAgent(DAILY, {
      ...base,
      model,
      commandRunner: runner,
      approvalProvider: terminal,
      auditSink: new RecordingAuditSink(),
      runAnswers: { personalRules: [{ behavior: "allow", tool: "shell", argv: ["git"] }] },
      // A command allow holds only in the sandbox.
      executionEnvironment: new FixedEnvironment(() => ({
        kind: "isolated",
        network: "disabled",
        label: "sandbox",
      })),
    }).run("go");
    expect(runner.commands).toEqual(["npx ava", "npx ava", "git status"]);
    expect(terminal.asked).toEqual(['{"command":"npx ava"}']);
    // The sandbox keeps the files loaded later read-only to the unapproved ones (daily).
    expect(runner.unapproved).toEqual([false, true, true]);
  });
});

/** The daily profile in `workspace`, one reply of `calls` under `rules`; the person says no. */
function oneReplyUnder(
  workspace: string,
  rules: PersonalRuleSpec[],
  calls: readonly { readonly name: string; readonly arguments: Record<string, unknown> }[],
  approver = new AnswersEvery("n"),
) {
  return buildAgent(DAILY, {
    workspace,
    model: new ScriptedModelClient([
      toolCallReply(calls.map((call, index) => ({ id: `c${index}`, ...call }))),
      textReply("done"),
    ]),
    commandRunner: new RecordingCommandRunner(),
    approvalProvider: approver,
    auditSink: new RecordingAuditSink(),
    runAnswers: { personalRules: rules },
  }).run("go");
}

const WITHHELD = "[files your settings deny or ask about are not searched]";

describe("a personal path rule, grep and glob", () => {
  it("grep and glob leave out what a deny names; a grep naming it is denied", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "src"), { recursive: true });
    mkdirSync(join(workspace, "docs"), { recursive: true });
    writeFileSync(join(workspace, "src", "secret.ts"), "key = 1\n");
    writeFileSync(join(workspace, "docs", "guide.md"), "key = 2\n");
    const searches = [
      ...["src", ".", "src/secret.ts", "docs"].map((path) => ({
        name: "grep",
        arguments: { pattern: "key", path },
      })),
      { name: "glob", arguments: { pattern: "**/*" } },
    ];
    const run = (rules: PersonalRuleSpec[]) => oneReplyUnder(workspace, rules, searches);

    for (const rule of ["src/secret.ts", "**/secret.ts", "src"]) {
      const denied = await run([{ behavior: "deny", tool: "*", path: rule }]);
      const reason = `Error [permission_denied]: Your settings file: deny * ${rule}`;
      expect(toolMessages(denied.history)).toEqual([
        { id: "c0", content: rule === "src" ? reason : `No matches for key\n${WITHHELD}` },
        { id: "c1", content: `docs/guide.md:1:key = 2\n${WITHHELD}` },
        { id: "c2", content: reason },
        { id: "c3", content: `docs/guide.md:1:key = 2\n${WITHHELD}` },
        { id: "c4", content: `docs/guide.md\n${WITHHELD}` },
      ]);
    }
    // A rule for read_file keeps the file from grep (it reads the same text) and from glob (it
    // lists the name of a file the model may not read) too.
    const reads = await run([{ behavior: "deny", tool: "read_file", path: "src/secret.ts" }]);
    expect(toolMessages(reads.history)).toEqual([
      { id: "c0", content: `No matches for key\n${WITHHELD}` },
      { id: "c1", content: `docs/guide.md:1:key = 2\n${WITHHELD}` },
      {
        id: "c2",
        content: "Error [permission_denied]: Your settings file: deny read_file src/secret.ts",
      },
      { id: "c3", content: `docs/guide.md:1:key = 2\n${WITHHELD}` },
      { id: "c4", content: `docs/guide.md\n${WITHHELD}` },
    ]);
    const other = await run([{ behavior: "deny", tool: "glob", path: "src/secret.ts" }]);
    expect(toolMessages(other.history)).toEqual([
      { id: "c0", content: "src/secret.ts:1:key = 1" },
      { id: "c1", content: "docs/guide.md:1:key = 2\nsrc/secret.ts:1:key = 1" },
      { id: "c2", content: "src/secret.ts:1:key = 1" },
      { id: "c3", content: "docs/guide.md:1:key = 2" },
      { id: "c4", content: `docs/guide.md\n${WITHHELD}` },
    ]);
  });
});

describe("what a search says under a path rule", () => {
  it("the same whatever the withheld files hold or are named: nothing to guess them by", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "my-secrets"), { recursive: true });
    writeFileSync(join(workspace, "my-secrets", "key.txt"), "API_KEY=hunter2\n");
    const result = await oneReplyUnder(
      workspace,
      [{ behavior: "deny", tool: "*", path: "my-secrets/**" }],
      [
        { name: "grep", arguments: { pattern: "^API_KEY=h", glob: "my-secrets/**" } },
        { name: "grep", arguments: { pattern: "^API_KEY=z", glob: "my-secrets/**" } },
        { name: "grep", arguments: { pattern: "A", max_results: 1 } },
        { name: "glob", arguments: { pattern: "my-secrets/k*" } },
        { name: "glob", arguments: { pattern: "my-secrets/z*" } },
        { name: "read_file", arguments: { path: "my-secrets/key.txt" } },
      ],
    );
    expect(toolMessages(result.history)).toEqual([
      { id: "c0", content: `No matches for ^API_KEY=h\n${WITHHELD}` },
      { id: "c1", content: `No matches for ^API_KEY=z\n${WITHHELD}` },
      { id: "c2", content: `No matches for A\n${WITHHELD}` },
      { id: "c3", content: `No files match my-secrets/k*\n${WITHHELD}` },
      { id: "c4", content: `No files match my-secrets/z*\n${WITHHELD}` },
      { id: "c5", content: "Error [permission_denied]: Your settings file: deny * my-secrets/**" },
    ]);
  });
});

describe("a withheld .gitignore", () => {
  it("is not read: what it leaves out of a search would tell what it says", async () => {
    const workspace = join(home, "project");
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, ".gitignore"), "probe-b\n");
    writeFileSync(join(workspace, "probe-a"), "NEEDLE\n");
    writeFileSync(join(workspace, "probe-b"), "NEEDLE\n");
    const result = await oneReplyUnder(
      workspace,
      [{ behavior: "deny", tool: "*", path: ".gitignore" }],
      [{ name: "grep", arguments: { pattern: "NEEDLE" } }],
    );
    expect(toolMessages(result.history)).toEqual([
      { id: "c0", content: `probe-a:1:NEEDLE\nprobe-b:1:NEEDLE\n${WITHHELD}` },
    ]);
  });
});

describe("a rule that could never decide a call", () => {
  it.each([
    [
      { behavior: "deny", tool: "read-file", path: "secrets/**" },
      '(deny read-file secrets/**): there is no tool "read-file" in this profile (its tools: shell, read_file, write_file, edit_file, glob, grep)',
    ],
    [
      { behavior: "allow", tool: "Shell", argv: ["ls"] },
      '(allow Shell ls …): there is no tool "Shell" in this profile (its tools: shell, read_file, write_file, edit_file, glob, grep)',
    ],
    [
      { behavior: "deny", tool: "shell", path: "secrets/**" },
      "(deny shell secrets/**): path is for a file tool; a command reads and writes what it runs, so name its words with argv",
    ],
    [
      { behavior: "deny", tool: "read_file", argv: ["cat"] },
      "(deny read_file cat …): argv is for a command tool; read_file takes a path",
    ],
    [
      { behavior: "allow", tool: "*", argv: ["ls"] },
      "(allow * ls …): an allow of a command names its tool (one of shell, read_file, write_file, edit_file, glob, grep), not *",
    ],
  ] as const)("is refused before the run: %j", (rule, said) => {
    expect(() =>
      buildAgent(DAILY, {
        workspace: "/nonexistent-workspace-for-offline-tests",
        model: new ScriptedModelClient([textReply("hi")]),
        commandRunner: new RecordingCommandRunner(),
        approvalProvider: new AnswersEvery("n"),
        auditSink: new RecordingAuditSink(),
        runAnswers: { personalRules: [{ behavior: "allow", tool: "shell", argv: ["git"] }, rule] },
      }),
    ).toThrow(new BootstrapError(`your settings file's rules[1] ${said}`));
  });

  it("an allow of * with a path covers write_file and edit_file alike", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "src"), { recursive: true });
    writeFileSync(join(workspace, "src", "a.ts"), "old\n");
    const result = await oneReplyUnder(
      workspace,
      [{ behavior: "allow", tool: "*", path: "src/**" }],
      [
        { name: "write_file", arguments: { path: "src/b.ts", content: "new\n" } },
        {
          name: "edit_file",
          arguments: { path: "src/a.ts", old_string: "old", new_string: "new" },
        },
      ],
    );
    expect(toolMessages(result.history)).toEqual([
      { id: "c0", content: "Wrote 4 UTF-8 bytes to src/b.ts" },
      { id: "c1", content: "Replaced 1 occurrence in src/a.ts" },
    ]);
    expect(readFileSync(join(workspace, "src", "b.ts"), "utf8")).toBe("new\n");
    expect(readFileSync(join(workspace, "src", "a.ts"), "utf8")).toBe("new\n");
  });
});

describe("a personal path deny and a read through a link", () => {
  it("denies a read or a search of what the link reaches: notes -> secrets", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "secrets"), { recursive: true });
    mkdirSync(join(workspace, "docs"), { recursive: true });
    writeFileSync(join(workspace, "secrets", "key.txt"), "API_KEY=hunter2\n");
    writeFileSync(join(workspace, "docs", "guide.md"), "API_KEY is read from the environment\n");
    symlinkSync("secrets", join(workspace, "notes"));
    symlinkSync(".", join(workspace, "up"));
    const calls = [
      { name: "read_file", arguments: { path: "notes/key.txt" } },
      { name: "read_file", arguments: { path: "up/secrets/key.txt" } },
      { name: "grep", arguments: { pattern: "API_KEY", path: "notes" } },
      { name: "grep", arguments: { pattern: "API_KEY", path: "up/secrets" } },
      { name: "grep", arguments: { pattern: "API_KEY", path: "docs" } },
    ];
    const result = await oneReplyUnder(
      workspace,
      [{ behavior: "deny", tool: "*", path: "secrets/**" }],
      calls,
    );
    const denied = "Error [permission_denied]: Your settings file: deny * secrets/**";
    expect(toolMessages(result.history)).toEqual([
      { id: "c0", content: denied },
      { id: "c1", content: denied },
      // The folder itself, reached through the links: `secrets/**` names it too.
      { id: "c2", content: denied },
      { id: "c3", content: denied },
      { id: "c4", content: `docs/guide.md:1:API_KEY is read from the environment\n${WITHHELD}` },
    ]);
  });
});

describe("a personal path rule and a case-blind filesystem's spellings", () => {
  it("a deny names every spelling of its path; an allow only its own", async () => {
    const workspace = join(home, "project");
    // On macOS or Windows each of these is `secrets/…`; here they are folders of their own.
    for (const folder of ["Secrets", "SECRETS.", "src"]) {
      mkdirSync(join(workspace, folder), { recursive: true });
    }
    writeFileSync(join(workspace, "Secrets", "key.txt"), "API_KEY=hunter2\n");
    writeFileSync(join(workspace, "SECRETS.", "KEY.TXT"), "API_KEY=hunter3\n");
    writeFileSync(join(workspace, "src", "main.ts"), "const API_KEY = process.env.KEY;\n");
    const approver = new AnswersEvery("n");
    const result = await oneReplyUnder(
      workspace,
      [
        { behavior: "deny", tool: "*", path: "secrets/**" },
        { behavior: "allow", tool: "write_file", path: "src/**" },
      ],
      [
        { name: "read_file", arguments: { path: "Secrets/key.txt" } },
        { name: "read_file", arguments: { path: "SECRETS./KEY.TXT" } },
        { name: "grep", arguments: { pattern: "API_KEY" } },
        { name: "glob", arguments: { pattern: "**/*" } },
        { name: "write_file", arguments: { path: "SRC/b.ts", content: "b\n" } },
        { name: "write_file", arguments: { path: "src/a.ts", content: "a\n" } },
      ],
      approver,
    );

    const denied = "Error [permission_denied]: Your settings file: deny * secrets/**";
    expect(toolMessages(result.history)).toEqual([
      { id: "c0", content: denied },
      { id: "c1", content: denied },
      { id: "c2", content: `src/main.ts:1:const API_KEY = process.env.KEY;\n${WITHHELD}` },
      { id: "c3", content: `src/main.ts\n${WITHHELD}` },
      { id: "c4", content: "Error [permission_denied]: User denied this tool call" },
      { id: "c5", content: "Wrote 2 UTF-8 bytes to src/a.ts" },
    ]);
    // `SRC/b.ts` is another folder here, and the person wrote `src/**`: asked, not allowed.
    expect(approver.asked).toEqual([JSON.stringify({ path: "SRC/b.ts", content: "b\n" })]);
  });
});

describe("an edit of a file a path rule keeps", () => {
  it("learns nothing of its text: whether old_string occurs is not looked at", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "secrets"), { recursive: true });
    mkdirSync(join(workspace, "docs"), { recursive: true });
    writeFileSync(join(workspace, "secrets", "key.txt"), "API_KEY=hunter2\n");
    writeFileSync(join(workspace, "docs", "guide.md"), "Read the key.\n");
    const edit = (path: string, old: string) => ({
      name: "edit_file",
      arguments: { path, old_string: old, new_string: "x" },
    });
    const calls = [
      edit("secrets/key.txt", "hunter2"),
      edit("secrets/key.txt", "hunter3"),
      edit("docs/guide.md", "hunter3"),
    ];
    const run = async (behavior: "deny" | "ask") => {
      const approver = new AnswersEvery("n");
      const rules: PersonalRuleSpec[] = [{ behavior, tool: "*", path: "secrets/**" }];
      const result = await oneReplyUnder(workspace, rules, calls, approver);
      return { messages: toolMessages(result.history), asked: approver.asked };
    };
    const noMatch =
      "Error [edit_no_match]: old_string was not found in docs/guide.md; read the file and copy the text exactly, including whitespace and indentation";

    const denied = await run("deny");
    const deny = "Error [permission_denied]: Your settings file: deny * secrets/**";
    expect(denied.messages).toEqual([
      { id: "c0", content: deny },
      { id: "c1", content: deny },
      { id: "c2", content: noMatch },
    ]);
    expect(denied.asked).toEqual([]);

    // The person's own question is put whatever the file holds; an edit elsewhere that cannot
    // apply is still refused before anyone is asked.
    const asked = await run("ask");
    const refused = "Error [permission_denied]: User denied this tool call";
    expect(asked.messages).toEqual([
      { id: "c0", content: refused },
      { id: "c1", content: refused },
      { id: "c2", content: noMatch },
    ]);
    expect(asked.asked).toEqual([
      JSON.stringify(calls[0]?.arguments),
      JSON.stringify(calls[1]?.arguments),
    ]);
    expect(readFileSync(join(workspace, "secrets", "key.txt"), "utf8")).toBe("API_KEY=hunter2\n");
  });
});

describe("a read_file rule keeps the text from every tool that would show it", () => {
  it("grep leaves it out, and an edit's precheck does not look inside", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "secrets"), { recursive: true });
    writeFileSync(join(workspace, "secrets", "key.txt"), "API_KEY=hunter2\n");
    const approver = new AnswersEvery("n");
    const result = await oneReplyUnder(
      workspace,
      [{ behavior: "deny", tool: "read_file", path: "secrets/**" }],
      [
        { name: "grep", arguments: { pattern: "API_KEY" } },
        {
          name: "edit_file",
          arguments: { path: "secrets/key.txt", old_string: "hunter3", new_string: "x" },
        },
      ],
      approver,
    );
    expect(toolMessages(result.history)).toEqual([
      { id: "c0", content: `No matches for API_KEY\n${WITHHELD}` },
      { id: "c1", content: "Error [permission_denied]: User denied this tool call" },
    ]);
    expect(approver.reasons).toEqual([
      "File writes require explicit approval from chapter 3 onward",
    ]);
  });

  it("glob leaves out the names of the files it keeps, as grep leaves out their text", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "secrets"), { recursive: true });
    mkdirSync(join(workspace, "pub"), { recursive: true });
    writeFileSync(join(workspace, "secrets", "prod.env"), "API_KEY=hunter2\n");
    writeFileSync(join(workspace, "pub", "id.key"), "k\n");
    writeFileSync(join(workspace, "README.md"), "hi\n");
    const result = await oneReplyUnder(
      workspace,
      [
        { behavior: "deny", tool: "read_file", path: "secrets/**" },
        { behavior: "ask", tool: "read_file", path: "**/*.key" },
      ],
      [{ name: "glob", arguments: { pattern: "**/*" } }],
      new AnswersEvery("n"),
    );
    expect(toolMessages(result.history)).toEqual([{ id: "c0", content: `README.md\n${WITHHELD}` }]);
  });

  it("an allow of edits does not answer for a file whose reads a rule denies", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "config"), { recursive: true });
    writeFileSync(join(workspace, "config", "secrets.json"), '{"token":"tk-9Q7Z"}\n');
    const probe = (old: string) => ({
      name: "edit_file",
      arguments: { path: "config/secrets.json", old_string: old, new_string: old },
    });
    const approver = new AnswersEvery("n");
    const result = await oneReplyUnder(
      workspace,
      [
        { behavior: "deny", tool: "read_file", path: "config/secrets.json" },
        { behavior: "allow", tool: "edit_file", path: "config/**" },
      ],
      [probe("tk-8"), probe("tk-9")],
      approver,
    );
    const refused = "Error [permission_denied]: User denied this tool call";
    expect(toolMessages(result.history)).toEqual([
      { id: "c0", content: refused },
      { id: "c1", content: refused },
    ]);
    expect(approver.asked).toHaveLength(2);
  });

  it("a person's ask gives its own reason where the profile's write rule asks too", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "secrets"), { recursive: true });
    const approver = new AnswersEvery("n");
    await oneReplyUnder(
      workspace,
      [{ behavior: "ask", tool: "*", path: "secrets/**" }],
      [{ name: "write_file", arguments: { path: "secrets/new.txt", content: "x" } }],
      approver,
    );
    expect(approver.reasons).toEqual(["Your settings file: ask * secrets/**"]);
  });
});

describe("a path rule's ? against a name a case-blind filesystem folds longer", () => {
  it("stra?e/** still names straße/: read denied, search leaves it out", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "straße"), { recursive: true });
    writeFileSync(join(workspace, "straße", "key.txt"), "S3CRET\n");
    const result = await oneReplyUnder(
      workspace,
      [{ behavior: "deny", tool: "*", path: "stra?e/**" }],
      [
        { name: "read_file", arguments: { path: "straße/key.txt" } },
        { name: "grep", arguments: { pattern: "S3CRET" } },
      ],
    );
    expect(toolMessages(result.history)).toEqual([
      { id: "c0", content: "Error [permission_denied]: Your settings file: deny * stra?e/**" },
      { id: "c1", content: `No matches for S3CRET\n${WITHHELD}` },
    ]);
  });
});

describe("a personal allow and a file read through a loaded-later link", () => {
  it.each([
    // The next session reads docs/rules.md: docs/** was written for documentation.
    ["AGENTS.md", "docs/rules.md", "docs/rules.md", "docs/**"],
    // A link inside a folder loaded whole: CI runs ci.yml.
    [".github/workflows/ci.yml", "../../ci.yml", "ci.yml", "*.yml"],
  ])(
    "%s -> %s: a write of %s is asked about though %s allows it",
    async (link, target, written, glob) => {
      const workspace = join(home, "project");
      mkdirSync(join(workspace, "docs"), { recursive: true });
      mkdirSync(join(workspace, link, ".."), { recursive: true });
      writeFileSync(join(workspace, written), "Be careful.\n");
      symlinkSync(target, join(workspace, link));
      writeFileSync(join(workspace, "docs", "guide.md"), "old\n");
      const terminal = new AnswersEvery("n");
      const model = new ScriptedModelClient([
        toolCallReply([
          { id: "w1", name: "write_file", arguments: { path: written, content: "evil\n" } },
        ]),
        toolCallReply([
          { id: "w2", name: "write_file", arguments: { path: "docs/guide.md", content: "new\n" } },
        ]),
        textReply("done"),
      ]);
      const result = await buildAgent(DAILY, {
        workspace,
        model,
        commandRunner: new RecordingCommandRunner(),
        approvalProvider: terminal,
        auditSink: new RecordingAuditSink(),
        runAnswers: {
          personalRules: [
            { behavior: "allow", tool: "write_file", path: glob },
            { behavior: "allow", tool: "write_file", path: "docs/guide.md" },
          ],
        },
      }).run("go");
      expect(terminal.asked).toEqual([JSON.stringify({ path: written, content: "evil\n" })]);
      expect(toolMessages(result.history)).toEqual([
        { id: "w1", content: "Error [permission_denied]: User denied this tool call" },
        { id: "w2", content: "Wrote 4 UTF-8 bytes to docs/guide.md" },
      ]);
      expect(readFileSync(join(workspace, written), "utf8")).toBe("Be careful.\n");
    },
  );
});

describe("a personal allow and a file an install-time script runs", () => {
  it("allow src/** does not cover src/post.js, which postinstall runs at the next npm install", async () => {
    const workspace = join(home, "project");
    mkdirSync(join(workspace, "src"), { recursive: true });
    writeFileSync(
      join(workspace, "package.json"),
      JSON.stringify({ scripts: { postinstall: "node src/post.js", test: "node src/check.js" } }),
    );
    writeFileSync(join(workspace, "src", "post.js"), "console.log('post');\n");
    const terminal = new AnswersEvery("n");
    const model = new ScriptedModelClient([
      toolCallReply([
        { id: "w1", name: "write_file", arguments: { path: "src/post.js", content: "evil\n" } },
      ]),
      toolCallReply([
        { id: "w2", name: "write_file", arguments: { path: "src/check.js", content: "ok\n" } },
      ]),
      textReply("done"),
    ]);
    const result = await buildAgent(DAILY, {
      workspace,
      model,
      commandRunner: new RecordingCommandRunner(),
      approvalProvider: terminal,
      auditSink: new RecordingAuditSink(),
      runAnswers: { personalRules: [{ behavior: "allow", tool: "write_file", path: "src/**" }] },
    }).run("go");
    expect(terminal.asked).toEqual([JSON.stringify({ path: "src/post.js", content: "evil\n" })]);
    expect(toolMessages(result.history)).toEqual([
      { id: "w1", content: "Error [permission_denied]: User denied this tool call" },
      { id: "w2", content: "Wrote 3 UTF-8 bytes to src/check.js" },
    ]);
    expect(readFileSync(join(workspace, "src", "post.js"), "utf8")).toBe("console.log('post');\n");
  });
});

describe("what a run grant binds of a shell command", () => {
  it("the npm script it reaches, read now, operators and all; a command that hides its scripts gets no grant", () => {
    const workspace = join(home, "project");
    mkdirSync(workspace);
    const scripts = (test: string) => {
      writeFileSync(join(workspace, "package.json"), JSON.stringify({ scripts: { test } }));
    };
    scripts("ava");
    const before = shellCommandBinding(workspace, "npm test");
    expect(before).toContain("ava");
    scripts("ava && node evil.js");
    expect(shellCommandBinding(workspace, "npm test")).not.toBe(before);
    // Operators between commands are read as a script's: npm's script is still bound.
    expect(shellCommandBinding(workspace, "npm test && echo ok")).toContain("ava && node evil.js");
    expect(shellCommandBinding(workspace, "npm test 2>&1 | tail -3")).toContain(
      "ava && node evil.js",
    );
    for (const hidden of [
      'npm test "$X"',
      "npm test *",
      "awk -f prog.aw?",
      "tclsh ~/x.tcl",
      "npm run $(cat name)",
      "npm test <<EOF",
    ]) {
      expect(() => shellCommandBinding(workspace, hidden)).toThrow(UnbindableCommandError);
    }
    // Quotes hide nothing: the words are read as the shell reads them.
    expect(shellCommandBinding(workspace, 'npm test -- "a b"')).toContain("ava && node evil.js");
    expect(shellCommandBinding(workspace, "ls -la | wc -l")).toBeUndefined();
  });

  it.each([
    ["./f.sh | tail -5", "the shell is given f.sh"],
    ["python3.12 f.sh 2>&1 | tail", "python3.12 is given f.sh"],
    ["jest --config=./f.sh && echo ok", "jest is given f.sh"],
  ])("a command that is not plain words binds its files too: %s", (command, said) => {
    const workspace = join(home, "project");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "f.sh"), "echo one\n");
    const before = shellCommandBinding(workspace, command);
    expect(before?.replace(/[0-9a-f]{64}/u, "…")).toBe(`and ${said} (sha256 …)`);
    writeFileSync(join(workspace, "f.sh"), "echo CHANGED\n");
    expect(shellCommandBinding(workspace, command)).not.toBe(before);
  });

  it.each(["sh<f.sh", "cat f.sh | /bin/bash", "cd sub && ./f.sh", "(cd sub; ../f.sh)"])(
    "a command whose files the harness cannot name gets no grant: %s",
    (command) => {
      const workspace = join(home, "project");
      mkdirSync(join(workspace, "sub"), { recursive: true });
      writeFileSync(join(workspace, "f.sh"), "echo one\n");
      expect(() => shellCommandBinding(workspace, command)).toThrow(UnbindableCommandError);
    },
  );

  it.each([
    ["git -c 'alias.x=!sh ./f.sh' x", "sh is given f.sh"],
    ["env -S 'sh ./f.sh'", "sh is given f.sh"],
  ])("command text inside another word is read too: %s", (command, said) => {
    const workspace = join(home, "project");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "f.sh"), "echo one\n");
    const bound = shellCommandBinding(workspace, command) ?? "";
    expect(bound.replace(/[0-9a-f]{64}/u, "…").split(" · ")).toContain(`and ${said} (sha256 …)`);
  });

  it("the file an interpreter runs behind a wrapper: timeout 60 bash build.sh", () => {
    const workspace = join(home, "project");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "build.sh"), "echo building\n");
    const command = "timeout 60 bash build.sh";
    const before = shellCommandBinding(workspace, command);
    expect(before).toMatch(/^and bash is given build\.sh \(sha256 [0-9a-f]{64}\)$/u);
    writeFileSync(join(workspace, "build.sh"), "echo EVIL > pwned.txt\n");
    expect(shellCommandBinding(workspace, command)).not.toBe(before);
  });
});
