import type { PersonalRuleSpec } from "../core/policy/personal-rules.js";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { parseErrorLine } from "./parse-error-line.js";
import type { SandboxMode } from "../adapters/execution/index.js";
import type { ShellChoice } from "../adapters/shell/index.js";
import { sandboxLimits, sandboxUnmask } from "./settings/sandbox-settings.js";
import type { ResourceLimits } from "../adapters/sandbox/index.js";
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_MAX_TURNS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
} from "../bootstrap.js";
import { parseRequestTimeout, parseRetries } from "./settings/model-connection-settings.js";
import { parseCommandTimeout } from "./settings/command-timeout-setting.js";
import {
  keepsAudit,
  LATEST_CHAPTER,
  profileForChapter,
  profileNamed,
  type ChapterProfile,
} from "../core/profiles.js";
import { CliConfigError } from "./config-error.js";
import { languageFromLocale } from "./terminal/approval/locale.js";

// The adapters own the shell and sandbox choices; these lists only spell them out for the flags.
export const SHELL_CHOICES = [
  "auto",
  "powershell",
  "posix",
] as const satisfies readonly ShellChoice[];
export const SANDBOX_MODES = ["auto", "required", "off"] as const satisfies readonly SandboxMode[];
export const LANGUAGES = ["en", "zh"] as const;
/** What stdout carries: the answer (text), one JSON object (json), one JSON line per event. */
export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export type Language = (typeof LANGUAGES)[number];

export interface CliOptions {
  readonly help: boolean;
  readonly version: boolean;
  readonly prompt: string | undefined;
  /** `--chapter N` or `--profile NAME`, parsed once into what the run builds. */
  readonly profile: ChapterProfile;
  readonly workspace: string;
  readonly model: string | undefined;
  readonly maxTurns: number;
  /** `--context-window` or AGENT_CONTEXT_WINDOW; undefined: known from the model's name. */
  readonly contextWindow: number | undefined;
  /** `--request-timeout`, AGENT_REQUEST_TIMEOUT or the settings file, in ms: per model request. */
  readonly requestTimeoutMs: number;
  /** `--retries`, AGENT_RETRIES or the settings file: how often a failed request is sent again. */
  readonly retries: number;
  /** `--command-timeout`, AGENT_COMMAND_TIMEOUT or the settings file, in ms: how long one shell or run_command call runs. */
  readonly commandTimeoutMs: number;
  readonly shell: ShellChoice;
  readonly lang: Language;
  readonly sandbox: SandboxMode;
  readonly network: boolean;
  readonly passEnv: readonly string[];
  /** `--sandbox-limit NAME=VALUE` (and $AGENT_SANDBOX_LIMITS) over the defaults. */
  readonly sandboxLimits: ResourceLimits;
  /** `--sandbox-unmask PATH`: credentials left readable in the sandbox. */
  readonly sandboxUnmask: readonly string[];
  readonly auditLog: string | undefined;
  readonly record: string | undefined;
  readonly replay: string | undefined;
  readonly replayLenient: boolean;
  /** `--state-dir`; else AGENT_STATE_DIR or the platform default (adapters/state). */
  readonly stateDir: string | undefined;
  readonly quiet: boolean;
  readonly verbose: boolean;
  /** docs/output-format.md */
  readonly outputFormat: OutputFormat;
  /**
   * The person's own rules, from their settings file only (resolveSettings fills them in; no
   * flag, variable or workspace file can give one). Used by profiles with personal rules.
   */
  readonly personalRules?: readonly PersonalRuleSpec[];
}

export const HELP_TEXT = `Usage: agent [options] "<task>"
       agent [options] --prompt "<task>"
       agent runs [--workspace <dir>] [--state-dir <dir>]
                  [--limit <n> | --all] [--json]
       agent resume [<run-id>] [options]

A coding agent that asks before it acts. Every shell command, and from chapter 3
every file write, waits for your [y/N]; file writes outside the workspace are
always refused.
Quote the task so it is one argument: agent "fix the failing test".
With no task on a terminal, agent starts a conversation: each message a turn,
/help lists its commands (/model, /clear, /compact, /context, /usage, /undo,
/mcp, /permissions with --profile daily, /exit).

Options:
  -p, --prompt <text>     The task (or give it as the one argument)
      --workspace <dir>   Where the agent works (default: the directory you ran
                          the command from: $INIT_CWD under npm, else the
                          current directory)
      --chapter <1-4>     1 shell loop, 2 + file tools, 3 + permission policy
                          (default 3); 4 (P04): default deny, run_command
                          from an allowlist, approvals that wait (exit 3)
      --profile daily     Chapter 3 plus the grep tool, [y/N/a] (a: this exact
                          action for the rest of the run) and your own rules
                          from the settings file
      --model <name>      Model name (default: $OPENAI_MODEL, else built-in)
      --max-turns <n>     Stop after this many model replies (default ${DEFAULT_MAX_TURNS})
      --context-window <tokens>
                          The model's context window; the history is compacted
                          before it fills (default: known from the model's
                          name, else 32768; $AGENT_CONTEXT_WINDOW)
      --request-timeout <seconds>
                          How long one model request may take, and its reply
                          may pause (default ${DEFAULT_TIMEOUT_MS / 1000}, room for a local model
                          on a CPU; $AGENT_REQUEST_TIMEOUT)
      --retries <n>       Send a failed model request again up to n times
                          (0-10, default ${DEFAULT_MAX_RETRIES}; $AGENT_RETRIES); each retry is
                          said on stderr, and Ctrl-C ends its wait
      --command-timeout <seconds>
                          Kill a command (and all it started) after this long
                          (1-86400, default ${DEFAULT_COMMAND_TIMEOUT_MS / 1000}; $AGENT_COMMAND_TIMEOUT); the
                          model is told the limit
      --shell <kind>      auto | powershell | posix (default auto: bash, else
                          sh; on Windows PowerShell first)
      --sandbox <mode>    auto | required | off: run shell commands in
                          bubblewrap on Linux (default auto; $AGENT_SANDBOX)
      --network           Let sandboxed shell commands reach the network
      --pass-env <NAME>   Pass one more variable to shell commands (repeatable;
                          secrets never pass)
      --sandbox-limit <name=value>
                          Change one limit of sandboxed commands (repeatable;
                          $AGENT_SANDBOX_LIMITS, comma-separated): memory=4GiB,
                          processes=1024, file-size=2GiB, cpu-time=600 (s),
                          open-files=4096, or NAME=unlimited
      --sandbox-unmask <path>
                          Let sandboxed commands read one masked credential,
                          e.g. ~/.npmrc (repeatable; see docs/sandbox.md)
      --lang <en|zh>      Language of the approval prompt (default: from $LANG)
      --audit-log <file>  Append one JSON line per decision (chapter 3 or 4,
                          or --profile daily; $AGENT_AUDIT_LOG)
      --record <file>     Save each model request and reply (never the API key)
      --replay <file>     Serve model replies from a recording, not a provider
      --replay-lenient    With --replay: tool results and the system prompt may
                          differ (demos)
      --state-dir <dir>   Where run journals and approvals are kept, outside
                          the workspace
                          (default: $AGENT_STATE_DIR, else
                          $XDG_STATE_HOME/agent-harness or
                          ~/.local/state/agent-harness; on Windows
                          %LOCALAPPDATA%\\agent-harness)
      --output-format <f> text | json | stream-json: the answer as text, or one
                          JSON object at the end, or one JSON line per event
                          (docs/output-format.md)
      --quiet             Show only approval prompts, audit lines and the answer
      --verbose           Also show full tool results
  -h, --help              Show this help
  -v, --version           Show the version

Runs: every run is journaled (each step on disk before it happens).
  agent runs              This workspace's runs, newest first: id, start,
                          status, task
  agent resume [<id>]     Go on with a run after a crash or kill (default: the
                          newest if it is unfinished, waiting or failed, else
                          the newest unfinished or waiting one); a call that
                          was running is reported unknown to the model, never
                          run again.
                          Takes the run options above except --prompt,
                          --chapter, --profile and --model (the run's own);
                          --sandbox, --network and --command-timeout are kept
                          as the run began (another one is refused)
  agent resume --last     The newest run whatever its state (also -c), such
                          as a conversation killed at its prompt
  agent undo [N]          Take back the file changes of the newest run's last
                          call (or last N); a command's cannot be (--run ID)

Commands (chapter 4's approvals; each takes --workspace and --state-dir):
  agent approvals [--json]            List the requests waiting for an answer
  agent approve <id> [--ttl 15m]      Grant one run of exactly that action
  agent deny <id>                     Refuse it; the waiting call is denied
  agent commands                      The command allowlist and its sources
  agent config [options]              Each setting's value and where it came
                                      from (flag > environment > settings
                                      file > default; docs/settings.md)
  agent explain <tool> '<json>' [options]
                                      Dry run of one call through the policy;
                                      takes the run options that decide it
                                      (--chapter, --profile, --sandbox, ...)
  agent mcp                           Your MCP servers: state and tools
                                      (settings file; docs/mcp.md)

Environment: OPENAI_API_KEY, OPENAI_BASE_URL (any OpenAI-compatible server),
OPENAI_MODEL, AGENT_AUDIT_LOG, AGENT_COMMAND_TIMEOUT, AGENT_CONTEXT_WINDOW,
AGENT_REQUEST_TIMEOUT, AGENT_RETRIES, AGENT_SANDBOX, AGENT_SANDBOX_LIMITS,
AGENT_STATE_DIR, NO_COLOR.
Exit codes: 0 answer printed, 1 run failed, 2 configuration error (or nothing
to resume), 3 waiting for an approval (chapter 4), 4 piped run answered but
every tool call was denied, 129 terminal closed (SIGHUP), 130 Ctrl-C, 141 stderr
closed, 143 stopped (SIGTERM).`;

/** Every run option, as `node:util` parses it: a run takes them all, `agent explain` a few. */
export const RUN_OPTIONS = {
  prompt: { type: "string", short: "p" },
  chapter: { type: "string" },
  profile: { type: "string" },
  workspace: { type: "string" },
  model: { type: "string" },
  "max-turns": { type: "string" },
  "context-window": { type: "string" },
  "request-timeout": { type: "string" },
  retries: { type: "string" },
  "command-timeout": { type: "string" },
  shell: { type: "string" },
  lang: { type: "string" },
  sandbox: { type: "string" },
  network: { type: "boolean" },
  "pass-env": { type: "string", multiple: true },
  "sandbox-limit": { type: "string", multiple: true },
  "sandbox-unmask": { type: "string", multiple: true },
  "audit-log": { type: "string" },
  record: { type: "string" },
  replay: { type: "string" },
  "replay-lenient": { type: "boolean" },
  "state-dir": { type: "string" },
  quiet: { type: "boolean" },
  verbose: { type: "boolean" },
  "output-format": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

/**
 * Turns argv and the environment into validated options; every mistake is one readable line. The
 * workspace defaults to where the person ran the command: npm runs scripts from the package root
 * but sets INIT_CWD to the directory it was invoked from, so under `npm run agent` that one, else
 * `cwd`.
 */
export function parseCliArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: RUN_OPTIONS,
    });
  } catch (error) {
    throw new CliConfigError(parseErrorLine(error));
  }
  const values = parsed.values;
  if (values.quiet === true && values.verbose === true) {
    throw new CliConfigError("--quiet and --verbose cannot be used together");
  }
  const prompt = promptFrom(values.prompt, parsed.positionals);
  if (values["replay-lenient"] === true && values.replay === undefined) {
    throw new CliConfigError("--replay-lenient needs --replay");
  }
  // An empty path would fail only later (an audit log that cannot open denies every call), and an
  // empty model name would be sent to the provider: both are mistakes to name now.
  for (const flag of [
    "workspace",
    "model",
    "audit-log",
    "record",
    "replay",
    "state-dir",
  ] as const) {
    if (values[flag]?.trim() === "") throw new CliConfigError(`--${flag} must not be empty`);
  }
  const profile = parseProfile(values.chapter, values.profile);
  const auditLog = values["audit-log"] ?? nonEmpty(env.AGENT_AUDIT_LOG);
  // Chapters 1 and 2 come before the permission policy and keep no audit: a log asked for there
  // would stay empty while calls ran, so the run is refused rather than silently unaudited.
  if (auditLog !== undefined && !keepsAudit(profile)) {
    const flag = values["audit-log"] === undefined ? "AGENT_AUDIT_LOG" : "--audit-log";
    const chosen =
      profile.name === undefined ? `chapter ${profile.chapter}` : `--profile ${profile.name}`;
    throw new CliConfigError(
      `${flag} needs a profile that audits its decisions (chapter 3, chapter 4 or --profile daily), not ${chosen}`,
    );
  }
  return {
    help: values.help ?? false,
    version: values.version ?? false,
    prompt,
    profile,
    workspace: values.workspace ?? defaultWorkspace(env, cwd),
    model: values.model,
    maxTurns: parseMaxTurns(values["max-turns"]),
    contextWindow: parseContextWindow(values["context-window"], env.AGENT_CONTEXT_WINDOW),
    requestTimeoutMs: parseRequestTimeout(values["request-timeout"], env.AGENT_REQUEST_TIMEOUT),
    retries: parseRetries(values.retries, env.AGENT_RETRIES),
    commandTimeoutMs: parseCommandTimeout(values["command-timeout"], env.AGENT_COMMAND_TIMEOUT),
    shell: oneOf("--shell", values.shell ?? "auto", SHELL_CHOICES),
    lang: oneOf("--lang", values.lang ?? languageFromLocale(env), LANGUAGES),
    sandbox: sandboxMode(values.sandbox, env),
    network: values.network ?? false,
    passEnv: parsePassEnv(values["pass-env"] ?? []),
    sandboxLimits: sandboxLimits(values["sandbox-limit"], env.AGENT_SANDBOX_LIMITS),
    sandboxUnmask: sandboxUnmask(values["sandbox-unmask"] ?? [], env),
    auditLog,
    record: values.record,
    replay: values.replay,
    replayLenient: values["replay-lenient"] ?? false,
    stateDir: values["state-dir"],
    quiet: values.quiet ?? false,
    verbose: values.verbose ?? false,
    outputFormat: oneOf("--output-format", values["output-format"] ?? "text", OUTPUT_FORMATS),
  };
}

/** The task, from `--prompt` or the one positional argument; never both, never two words loose. */
function promptFrom(flag: string | undefined, positionals: readonly string[]): string | undefined {
  if (flag !== undefined && positionals.length > 0) {
    const also = positionals.map((word) => JSON.stringify(word)).join(" ");
    throw new CliConfigError(
      `the task was given twice (--prompt and ${also}): give it once, in quotes, e.g. agent "fix the bug" or agent --prompt "fix the bug"`,
    );
  }
  if (positionals.length > 1) {
    throw new CliConfigError(
      `the task must be one argument: put it in quotes, e.g. agent ${JSON.stringify(positionals.join(" "))} (got ${String(positionals.length)} arguments)`,
    );
  }
  const prompt = flag ?? positionals[0];
  if (prompt?.trim() === "") {
    throw new CliConfigError(
      flag === undefined ? "the task must not be empty" : "--prompt must not be empty",
    );
  }
  return prompt;
}

/**
 * `--chapter N` or `--profile NAME` as the profile it names; neither, the tutorial's last chapter.
 * Both name the same thing, so both at once is refused.
 */
export function parseProfile(raw: string | undefined, name?: string): ChapterProfile {
  if (name !== undefined) {
    if (raw !== undefined) {
      throw new CliConfigError("--profile and --chapter both choose the profile: give one of them");
    }
    const named = profileNamed(name);
    if (named === undefined) {
      throw new CliConfigError(`--profile must be daily (got ${JSON.stringify(name)})`);
    }
    return named;
  }
  if (raw === undefined) return profileForChapter(LATEST_CHAPTER);
  if (raw === "1" || raw === "2" || raw === "3" || raw === "4") {
    return profileForChapter(Number(raw));
  }
  throw new CliConfigError(`--chapter must be 1, 2, 3 or 4 (got ${JSON.stringify(raw)})`);
}

/**
 * The one place the sandbox mode is chosen: `--sandbox`, else AGENT_SANDBOX, else `auto`. A run,
 * a resume (which then keeps the journal's, resume-settings.ts) and `agent explain` all take it
 * from here, so a dry run confines its commands as the run would.
 */
export function sandboxMode(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): SandboxMode {
  return oneOf(
    flag === undefined ? "AGENT_SANDBOX" : "--sandbox",
    flag ?? nonEmpty(env.AGENT_SANDBOX) ?? "auto",
    SANDBOX_MODES,
  );
}

function parseMaxTurns(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_MAX_TURNS;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1 || value > 1000) {
    throw new CliConfigError(
      `--max-turns must be a whole number from 1 to 1000 (got ${JSON.stringify(raw)})`,
    );
  }
  return value;
}

/** A window smaller than this cannot hold the system prompt, the tools and one exchange. */
const SMALLEST_WINDOW = 1024;

function parseContextWindow(flag: string | undefined, env: string | undefined): number | undefined {
  const raw = flag ?? nonEmpty(env);
  if (raw === undefined) return undefined;
  const name = flag === undefined ? "AGENT_CONTEXT_WINDOW" : "--context-window";
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < SMALLEST_WINDOW) {
    throw new CliConfigError(
      `${name} must be a whole number of tokens, at least ${String(SMALLEST_WINDOW)} (got ${JSON.stringify(raw)})`,
    );
  }
  return value;
}

function parsePassEnv(names: readonly string[]): string[] {
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new CliConfigError(`--pass-env takes a variable name (got ${JSON.stringify(name)})`);
    }
  }
  return [...names];
}

function oneOf<T extends string>(flag: string, raw: string, choices: readonly T[]): T {
  const found = choices.find((choice) => choice === raw);
  if (found === undefined) {
    throw new CliConfigError(
      `${flag} must be one of ${choices.join(", ")} (got ${JSON.stringify(raw)})`,
    );
  }
  return found;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** Where the person ran the command: under `npm run agent` npm's INIT_CWD, else `cwd`. */
export function defaultWorkspace(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  return npmInvocationDirectory(env) ?? cwd;
}

/**
 * npm sets INIT_CWD for every script and everything they start, so it names where the person ran
 * the command only when npm is running our own `agent` script. A project's script that does
 * `cd packages/a && agent …` must get packages/a, not the directory npm was started in.
 */
function npmInvocationDirectory(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (env.npm_lifecycle_event !== "agent" || env.npm_package_name !== "agent-harness") {
    return undefined;
  }
  return nonEmpty(env.INIT_CWD);
}
