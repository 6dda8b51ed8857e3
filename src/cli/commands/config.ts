/**
 * `agent config [run options]`: each setting's effective value and where it came from (a flag,
 * the environment, the settings file or the default), as a run with the same options would use
 * it. The API key is only ever said to be set or not: its value is never printed.
 */
import {
  describeLimits,
  refuseUnusablePersonalRules,
  SETTING_NAMES,
  stateRootFor,
  type SettingName,
} from "../../bootstrap.js";
import { defaultContextWindow, knownContextWindow } from "../../core/context/context-budget.js";
import { maskUrlCredentials } from "../../core/common/url-credentials.js";
import type { CliIo } from "../cli-io.js";
import { CliConfigError } from "../config-error.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { EXIT } from "../exit-codes.js";
import { baseURL, modelName, resolveSettings } from "../settings/resolve-settings.js";
import { givesFlag } from "../settings/settings-layers.js";
import { guarded } from "../subcommand-args.js";
import { escapeForPrompt } from "../terminal/render/terminal-text.js";

export const CONFIG_HELP = `Usage: agent config [run options]

Prints each setting's effective value and where it came from: a flag, the
environment, the settings file, or the default. Precedence: flag > environment
> settings file > default. The settings file is
$XDG_CONFIG_HOME/agent-harness/settings.json (else ~/.config/…; on Windows
%APPDATA%\\agent-harness\\settings.json); no project-level file is read.
The API key's value is never printed.`;

export function configCommand(args: readonly string[], io: CliIo): Promise<number> {
  return guarded(io, () => {
    // The very settings a run with these options decides, not a second reading of them.
    const settings = runSettings(args, io);
    const { options, file, origins } = settings;
    // A rule the run would refuse before it starts is refused here too, in the run's words.
    refuseUnusablePersonalRules(options.profile, options.personalRules ?? []);
    // A setting that means nothing for this run (no profile beyond the chapters, no rules) has
    // no line.
    const model = modelName(settings);
    const window = contextWindow(options.contextWindow, model, origins.contextWindow);
    const values: Record<SettingName, string | undefined> = {
      model,
      baseURL: maskUrlCredentials(baseURL(settings)),
      chapter: String(options.profile.chapter),
      profile: options.profile.name,
      rules:
        file.values.rules === undefined
          ? undefined
          : `${String(file.values.rules.length)} of your own${options.profile.personalRules ? "" : " (not used by this profile)"}`,
      sandbox: options.sandbox,
      network: String(options.network),
      language: options.lang,
      contextWindow: `${String(window.tokens)} tokens`,
      requestTimeout: `${String(options.requestTimeoutMs / 1000)} s`,
      retries: String(options.retries),
      commandTimeout: `${String(options.commandTimeoutMs / 1000)} s`,
    };
    const width = Math.max(...SETTING_NAMES.map((name) => name.length));
    const servers = file.mcpServers === undefined ? undefined : Object.keys(file.mcpServers);
    const unused = options.profile.mcpTools === "none" ? " (not used by this profile)" : "";
    const lines = [
      `settings file: ${file.path}${fileNote(file)}`,
      ...SETTING_NAMES.flatMap((name) => {
        const value = values[name];
        const origin = name === "contextWindow" ? window.origin : origins[name];
        return value === undefined ? [] : [`${name.padEnd(width)}  ${value}  (${origin})`];
      }),
      ...(servers === undefined
        ? []
        : [
            `${"mcpServers".padEnd(width)}  ${servers.length === 0 ? "none" : `${servers.join(", ")} (${String(servers.length)})`}${unused}  (settings file)`,
          ]),
      ...runOnlySettings(args, io, options).map(
        ([name, value, origin]) => `${name.padEnd(width)}  ${value}  (${origin})`,
      ),
      `${"apiKey".padEnd(width)}  ${nonBlank(io.env.OPENAI_API_KEY) === undefined ? "not set" : "set (value not shown)"}  (environment OPENAI_API_KEY)`,
    ];
    io.stdout.write(`${lines.map((line) => escapeForPrompt(line)).join("\n")}\n`);
    return EXIT.ok;
  });
}

/**
 * What a run takes only from a flag or the environment, never from the settings file: where its
 * state is kept, its audit log, and the sandbox's resource limits.
 */
function runOnlySettings(
  args: readonly string[],
  io: CliIo,
  options: ReturnType<typeof resolveSettings>["options"],
): (readonly [name: string, value: string, origin: string])[] {
  const fromEnv = (name: string): boolean => nonBlank(io.env[name]) !== undefined;
  const stateDir = stateRootFor(options.stateDir, io);
  // XDG_STATE_HOME counts where the run's own rule takes it (not on Windows, not relative):
  // asked of that rule, not worked out again here.
  const withoutXdg = stateRootFor(options.stateDir, {
    ...io,
    env: { ...io.env, XDG_STATE_HOME: undefined },
  });
  const stateOrigin = givesFlag(args, "--state-dir")
    ? "flag --state-dir"
    : fromEnv("AGENT_STATE_DIR")
      ? "environment AGENT_STATE_DIR"
      : stateDir !== withoutXdg
        ? "environment XDG_STATE_HOME"
        : "default";
  const auditOrigin = givesFlag(args, "--audit-log")
    ? "flag --audit-log"
    : fromEnv("AGENT_AUDIT_LOG")
      ? "environment AGENT_AUDIT_LOG"
      : "default";
  const limitOrigins = [
    ...(fromEnv("AGENT_SANDBOX_LIMITS") ? ["environment AGENT_SANDBOX_LIMITS"] : []),
    ...(givesFlag(args, "--sandbox-limit") ? ["flag --sandbox-limit"] : []),
  ];
  return [
    ["stateDir", stateDir, stateOrigin],
    ["auditLog", options.auditLog ?? "none", auditOrigin],
    [
      "sandboxLimits",
      describeLimits(options.sandboxLimits) || "none",
      limitOrigins.length === 0 ? "default" : limitOrigins.join(" and "),
    ],
  ];
}

/**
 * The window the run's context budget uses (compose-run.ts): the one given, else the model's by
 * its name, else the default for a name the table does not know; the origin says which.
 */
function contextWindow(
  given: number | undefined,
  model: string,
  origin: string,
): { readonly tokens: number; readonly origin: string } {
  if (given !== undefined) return { tokens: given, origin };
  const known = knownContextWindow(model);
  return known === undefined
    ? {
        tokens: defaultContextWindow(model),
        origin: `${origin}, for a model name it does not know`,
      }
    : { tokens: known, origin: `${origin}, from the model's name` };
}

/** A mistyped run option points to the help that lists them, as it does for a run or a resume. */
function runSettings(args: readonly string[], io: CliIo): ReturnType<typeof resolveSettings> {
  try {
    return resolveSettings(args, io);
  } catch (error) {
    if (!(error instanceof CliConfigError)) throw error;
    throw new CliConfigError(`${firstLineOfError(error)} (see --help)`);
  }
}

/** After the file's path: whether it is there, and whether anything is in it. */
function fileNote(file: ReturnType<typeof resolveSettings>["file"]): string {
  if (file.missing === true) return " (no such file)";
  const empty = Object.keys(file.values).length === 0 && file.mcpServers === undefined;
  return empty ? " (no settings in it)" : "";
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
