/**
 * `agent explain` and a real run decide alike: for every tool of every profile, on calls inside
 * the workspace, outside it, on the harness's own files and on what a rule denies, the dry run's
 * decision (its `decision:` line, or `decision otherwise:` when a person would be asked and says
 * no) equals the decision the run journals for the same call with a person who says no. The run
 * is the composition root's own (composeRun) against a local chat-completions server.
 */
import { DEFAULT_RESOURCE_LIMITS } from "../../src/adapters/sandbox/index.js";
import { DEFAULT_SHELL_TIMEOUT_MS } from "../../src/features/shell-tool.js";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { journalPath, readJournalFile } from "../../src/adapters/journal/index.js";
import { composeRun } from "../../src/bootstrap/compose-run.js";
import { openRunStore } from "../../src/bootstrap/open/run-store.js";
import type { Host } from "../../src/bootstrap/host.js";
import {
  explainCall,
  explainCommand,
  plainExplainSettings,
} from "../../src/cli/commands/explain.js";
import { resolveSettings } from "../../src/cli/settings/resolve-settings.js";
import { composedRunSettings } from "../../src/cli/settings/run-settings.js";
import { TERMINAL_APPROVAL_SOURCE } from "../../src/cli/terminal/approval/terminal-approval.js";
import { PermissionDecision } from "../../src/core/policy/permission-decision.js";
import type { ApprovalProvider } from "../../src/core/policy/approval.js";
import { ALL_PROFILES, keepsAudit, type ChapterProfile } from "../../src/core/profiles.js";
import {
  ChatCompletionsServer,
  chatTextReply,
  chatToolCallsReply,
} from "../support/chat-completions-server.js";
import { runCapturedSubcommand } from "../support/captured-subcommand.js";

/** Stands in for the person, as explain's recorder does when it shows the `n` answer. */
const sayNo: ApprovalProvider = {
  decide: () =>
    Promise.resolve(
      PermissionDecision.deny("User denied this tool call", TERMINAL_APPROVAL_SOURCE),
    ),
};

const AUDIT_LOG = "audit.jsonl";

/** Calls for each tool: inside, outside, protected (the audit log, saved outputs), denied by rule. */
const CALLS: readonly (readonly [tool: string, args: Record<string, unknown>])[] = [
  ["shell", { command: "ls" }],
  ["shell", { command: "cat ../secret.txt" }],
  ["run_command", { command: "npm", args: ["test"] }],
  ["run_command", { command: "rm", args: ["-rf", "."] }],
  ["read_file", { path: "README.md" }],
  ["read_file", { path: "../secret.txt" }],
  ["read_file", { path: AUDIT_LOG }],
  ["write_file", { path: "note.txt", content: "hi\n" }],
  ["write_file", { path: "src/a.ts", content: "x" }],
  ["write_file", { path: "../outside.txt", content: "x" }],
  ["write_file", { path: AUDIT_LOG, content: "forged\n" }],
  ["write_file", { path: ".agent/outputs/forged.txt", content: "x" }],
  ["write_file", { path: ".git/config", content: "x" }],
  ["edit_file", { path: "README.md", old_string: "hello", new_string: "bye" }],
  ["edit_file", { path: "../secret.txt", old_string: "s", new_string: "t" }],
  ["edit_file", { path: AUDIT_LOG, old_string: "{", new_string: "[" }],
  ["glob", { pattern: "**/*.md" }],
  ["glob", { pattern: "../*" }],
  ["grep", { pattern: "hello" }],
  ["fetch_url", { url: "https://example.com/" }],
];

let base: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "explain-matches-run-")));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function workspaceFor(profile: ChapterProfile): Promise<{ ws: string; state: string }> {
  return workspaceNamed(profile.id);
}

async function workspaceNamed(name: string): Promise<{ ws: string; state: string }> {
  const root = join(base, name);
  const ws = join(root, "ws");
  const state = join(root, "state");
  await mkdir(join(ws, ".git"), { recursive: true });
  await mkdir(state);
  await writeFile(join(ws, "README.md"), "hello\n");
  await writeFile(join(ws, ".git", "config"), "[core]\n");
  await writeFile(join(ws, "package.json"), '{"scripts":{"test":"node -e 0"}}\n');
  await writeFile(join(ws, AUDIT_LOG), "");
  await writeFile(join(root, "secret.txt"), "s\n");
  return { ws, state };
}

/** What explain says the run would decide, as `behavior (source) - reason`, or its prepare line. */
function explained(lines: readonly string[]): string {
  const prepare = lines.find((line) => line.startsWith("prepare: ") && !line.includes(": ok · "));
  if (prepare !== undefined) return prepare.replace(/^prepare: /, "refused before the policy: ");
  const decision = lines.find(
    (line) => line.startsWith("decision: ") || line.startsWith("decision otherwise: "),
  );
  if (decision === undefined) throw new Error(`no decision in:\n${lines.join("\n")}`);
  return decision.replace(/^decision( otherwise)?: /, "");
}

describe("agent explain decides as the run does", () => {
  it.each(ALL_PROFILES.map((profile) => [profile.id, profile] as const))(
    "%s: every tool, inside, outside, protected and denied by rule",
    async (_id, profile) => {
      const { ws, state } = await workspaceFor(profile);
      const server = await ChatCompletionsServer.start([
        chatToolCallsReply(
          CALLS.map(([tool, args], index) => ({
            id: `call_${String(index)}`,
            name: tool,
            arguments: args,
          })),
        ),
        chatTextReply("done"),
      ]);
      onTestFinished(() => server.close());
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        OPENAI_API_KEY: "sk-test-explain",
        OPENAI_BASE_URL: server.baseURL,
      };
      const auditLog = keepsAudit(profile) ? join(ws, AUDIT_LOG) : undefined;
      const io = { env, platform: process.platform };

      // The dry runs first, on the workspace as it is before the run changes anything.
      const expected: string[] = [];
      for (const [tool, args] of CALLS) {
        const lines = await explainCall({
          tool,
          json: JSON.stringify(args),
          execution: plainExplainSettings({
            profile,
            workspace: ws,
            host: io,
            stateDir: state,
            ...(auditLog === undefined ? {} : { auditLog }),
          }),
        });
        expected.push(`${tool} ${JSON.stringify(args)}: ${explained(lines)}`);
      }

      const run = await composeRun(
        {
          profile,
          workspace: ws,
          host: io,
          model: {
            name: undefined,
            replay: undefined,
            replayLenient: false,
            record: undefined,
            requestTimeoutMs: 600_000,
            retries: 2,
          },
          sandbox: "auto",
          network: false,
          shell: "auto",
          passEnv: [],
          // What a run with no sandbox flags gets, as explain assumes.
          sandboxUnmask: [],
          sandboxLimits: DEFAULT_RESOURCE_LIMITS,
          commandTimeoutMs: DEFAULT_SHELL_TIMEOUT_MS,
          auditLog,
          stateDir: state,
          maxTurns: 5,
          contextWindow: undefined,
          startDirectory: ws,
        },
        { approver: () => sayNo, terminalAudit: { record: () => undefined } },
      );
      let runId: string;
      try {
        await run.agent.run("every call once");
        runId = run.session.runId;
      } finally {
        run.close();
      }

      const store = openRunStore(state, io, ws);
      const records = readJournalFile(journalPath(store.runs, runId)).records;
      const actual = CALLS.map(([tool, args], index) => {
        const callId = `call_${String(index)}`;
        const decision = records.find(
          (record) => record.type === "decision" && record.callId === callId,
        );
        if (decision?.type === "decision") {
          return `${tool} ${JSON.stringify(args)}: ${decision.behavior} (${decision.source}) - ${decision.reason}`;
        }
        const finished = records.find(
          (record) => record.type === "execution_finished" && record.callId === callId,
        );
        if (finished?.type !== "execution_finished") throw new Error(`no record of ${callId}`);
        return `${tool} ${JSON.stringify(args)}: refused before the policy: ${finished.content}`;
      });
      expect(actual).toEqual(expected);
    },
    30_000,
  );
});

/** What the run journals for each of CALLS, in explained()'s words. */
function journaledDecisions(state: string, io: Host, ws: string, runId: string): string[] {
  const store = openRunStore(state, io, ws);
  const records = readJournalFile(journalPath(store.runs, runId)).records;
  return CALLS.map(([tool, args], index) => {
    const callId = `call_${String(index)}`;
    const decision = records.find(
      (record) => record.type === "decision" && record.callId === callId,
    );
    if (decision?.type === "decision") {
      return `${tool} ${JSON.stringify(args)}: ${decision.behavior} (${decision.source}) - ${decision.reason}`;
    }
    const finished = records.find(
      (record) => record.type === "execution_finished" && record.callId === callId,
    );
    if (finished?.type !== "execution_finished") throw new Error(`no record of ${callId}`);
    return `${tool} ${JSON.stringify(args)}: refused before the policy: ${finished.content}`;
  });
}

/** The person's own rules (daily): an allow and a deny for a file tool, an allow for a command. */
const PERSONAL_RULES = [
  { behavior: "allow", tool: "write_file", path: "src/**" },
  { behavior: "deny", tool: "read_file", path: "README.md" },
  { behavior: "allow", tool: "shell", argv: ["ls"] },
];

/**
 * The same table with the settings taken from each place a person can give them: a flag, the
 * environment, the settings file. Explain is run as `agent explain TOOL 'JSON' [flags]` and the
 * run from `resolveSettings` with the same flags, as the commands do, so a value the file gives
 * (`{"chapter": 4}`, `{"profile": "daily"}`) and a flag explain takes reach the dry run too.
 */
const SOURCES: readonly (readonly [
  source: string,
  given: {
    readonly argv: readonly string[];
    readonly env: Readonly<Record<string, string>>;
    readonly file?: object;
  },
  expected: {
    readonly profile: string;
    readonly sandbox: string;
    readonly origin: string;
  },
])[] = [
  [
    "flag",
    { argv: ["--chapter", "4"], env: {} },
    { profile: "P04", sandbox: "auto", origin: "flag --chapter" },
  ],
  [
    "environment",
    { argv: [], env: { AGENT_SANDBOX: "off" } },
    { profile: "P03", sandbox: "off", origin: "default" },
  ],
  [
    "settings file",
    { argv: [], env: {}, file: { chapter: 4 } },
    { profile: "P04", sandbox: "auto", origin: "settings file" },
  ],
  [
    "flag --profile daily",
    { argv: ["--profile", "daily"], env: {}, file: { rules: PERSONAL_RULES } },
    { profile: "daily", sandbox: "auto", origin: "flag --profile" },
  ],
  [
    "settings file daily",
    { argv: [], env: {}, file: { profile: "daily", rules: PERSONAL_RULES } },
    { profile: "daily", sandbox: "auto", origin: "settings file" },
  ],
  [
    "flag --sandbox off",
    { argv: ["--sandbox", "off", "--profile", "daily"], env: {}, file: { rules: PERSONAL_RULES } },
    { profile: "daily", sandbox: "off", origin: "flag --profile" },
  ],
];

describe("agent explain decides as the run does, wherever the settings come from", () => {
  it.each(SOURCES)(
    "%s",
    async (source, given, expected) => {
      const { ws, state } = await workspaceNamed(`source-${source.replace(/ /g, "-")}`);
      const config = join(base, `config-${source.replace(/ /g, "-")}`);
      if (given.file !== undefined) {
        await mkdir(join(config, "agent-harness"), { recursive: true });
        await writeFile(join(config, "agent-harness", "settings.json"), JSON.stringify(given.file));
      }
      const server = await ChatCompletionsServer.start([
        chatToolCallsReply(
          CALLS.map(([tool, args], index) => ({
            id: `call_${String(index)}`,
            name: tool,
            arguments: args,
          })),
        ),
        chatTextReply("done"),
      ]);
      onTestFinished(() => server.close());
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        XDG_CONFIG_HOME: config,
        OPENAI_API_KEY: "sk-test-explain",
        OPENAI_BASE_URL: server.baseURL,
        ...given.env,
      };
      const flags = [
        ...given.argv,
        "--workspace",
        ws,
        "--state-dir",
        state,
        "--audit-log",
        join(ws, AUDIT_LOG),
      ];
      const settings = resolveSettings(flags, { env, platform: process.platform, cwd: ws });
      expect({
        profile: settings.options.profile.id,
        sandbox: settings.options.sandbox,
        // A profile has an origin only when one was given (a named profile beyond the chapters).
        origin: Object.hasOwn(settings.origins, "profile")
          ? settings.origins.profile
          : settings.origins.chapter,
      }).toEqual(expected);
      const host = { env: settings.env, platform: process.platform };

      // The dry run as the person types it, its flags after the call.
      const explainedDecisions: string[] = [];
      for (const [tool, args] of CALLS) {
        const json = JSON.stringify(args);
        const shown = await runCapturedSubcommand(explainCommand, [tool, json, ...flags], {
          home: env.HOME ?? base,
          cwd: ws,
          env,
        });
        expect(shown).toMatchObject({ code: 0, err: "" });
        explainedDecisions.push(`${tool} ${json}: ${explained(shown.out.split("\n"))}`);
      }

      const run = await composeRun(
        composedRunSettings({ ...settings.options, maxTurns: 5 }, host, ws, ws, undefined),
        { approver: () => sayNo, terminalAudit: { record: () => undefined } },
      );
      let runId: string;
      try {
        await run.agent.run("every call once");
        runId = run.session.runId;
      } finally {
        run.close();
      }
      expect(journaledDecisions(state, host, ws, runId)).toEqual(explainedDecisions);
    },
    30_000,
  );
});
