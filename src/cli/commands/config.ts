/**
 * `agent config [run options]`: each setting's effective value and where it came from (a flag,
 * the environment, the settings file or the default), as a run with the same options would use
 * it. The API key is only ever said to be set or not: its value is never printed.
 */
import { DEFAULT_BASE_URL, DEFAULT_MODEL } from "../../bootstrap/settings-file.js";
import { SETTING_NAMES, type SettingName } from "../../bootstrap/settings-file.js";
import { maskUrlCredentials } from "../../core/common/url-credentials.js";
import { parseCliArgs } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { EXIT } from "../exit-codes.js";
import {
  givesFlag,
  personSettings,
  SETTING_ENV,
  SETTING_FLAG,
  withFileSettings,
} from "../settings/settings-layers.js";
import { guarded } from "../subcommand-args.js";
import { escapeForPrompt } from "../terminal/terminal-text.js";

export const CONFIG_HELP = `Usage: agent config [run options]

Prints each setting's effective value and where it came from: a flag, the
environment, the settings file, or the default. Precedence: flag > environment
> settings file > default. The settings file is
$XDG_CONFIG_HOME/agent-harness/settings.json (else ~/.config/…; on Windows
%APPDATA%\\agent-harness\\settings.json); no project-level file is read.
The API key's value is never printed.`;

export function configCommand(args: readonly string[], io: CliIo): Promise<number> {
  return guarded(io, () => {
    const settings = personSettings(io);
    const layered = withFileSettings(args, io.env, settings.values);
    const options = parseCliArgs(layered.argv, layered.env, io.cwd);
    const values: Record<SettingName, string> = {
      model: options.model ?? nonBlank(layered.env.OPENAI_MODEL) ?? DEFAULT_MODEL,
      baseURL: maskUrlCredentials(nonBlank(layered.env.OPENAI_BASE_URL) ?? DEFAULT_BASE_URL),
      chapter: String(options.profile.chapter),
      sandbox: options.sandbox,
      network: String(options.network),
      language: options.lang,
      contextWindow:
        options.contextWindow === undefined
          ? "known from the model's name"
          : `${String(options.contextWindow)} tokens`,
      requestTimeout: `${String(options.requestTimeoutMs / 1000)} s`,
      retries: String(options.retries),
    };
    const originOf = (name: SettingName): string => {
      const flag = SETTING_FLAG[name];
      if (flag !== undefined && givesFlag(args, flag)) return `flag ${flag}`;
      const variable = SETTING_ENV[name];
      if (variable !== undefined && nonBlank(io.env[variable]) !== undefined) {
        return `environment ${variable}`;
      }
      if (settings.values[name] !== undefined) return "settings file";
      if (name === "language") return "default (from $LANG)";
      return "default";
    };
    const width = Math.max(...SETTING_NAMES.map((name) => name.length));
    const lines = [
      `settings file: ${settings.path}${Object.keys(settings.values).length === 0 ? " (none)" : ""}`,
      ...SETTING_NAMES.map((name) => `${name.padEnd(width)}  ${values[name]}  (${originOf(name)})`),
      `${"apiKey".padEnd(width)}  ${nonBlank(io.env.OPENAI_API_KEY) === undefined ? "not set" : "set (value not shown)"}  (environment OPENAI_API_KEY)`,
    ];
    io.stdout.write(`${lines.map((line) => escapeForPrompt(line)).join("\n")}\n`);
    return EXIT.ok;
  });
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
