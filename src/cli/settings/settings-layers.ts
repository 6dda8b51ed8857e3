/**
 * The settings file as the lowest layer under flags and the environment: flag > environment >
 * file > default. A file value fills in the environment variable that already carries the same
 * setting (OPENAI_MODEL, OPENAI_BASE_URL, AGENT_SANDBOX, AGENT_CONTEXT_WINDOW,
 * AGENT_REQUEST_TIMEOUT, AGENT_RETRIES, AGENT_COMMAND_TIMEOUT) only when that variable is not set, and goes before the
 * command line as a flag for the others, so any flag given later wins. The
 * language from `$LANG` is a guess from the locale, not a choice: the file's `language` beats it.
 */
import type { FileSettings, SettingName } from "../../bootstrap.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The environment variable that carries each setting, where one does. */
export const SETTING_ENV: Partial<Record<SettingName, string>> = {
  model: "OPENAI_MODEL",
  baseURL: "OPENAI_BASE_URL",
  sandbox: "AGENT_SANDBOX",
  contextWindow: "AGENT_CONTEXT_WINDOW",
  requestTimeout: "AGENT_REQUEST_TIMEOUT",
  retries: "AGENT_RETRIES",
  commandTimeout: "AGENT_COMMAND_TIMEOUT",
};

/** The flag that sets each setting, where one does. */
export const SETTING_FLAG: Partial<Record<SettingName, string>> = {
  model: "--model",
  chapter: "--chapter",
  profile: "--profile",
  sandbox: "--sandbox",
  network: "--network",
  language: "--lang",
  contextWindow: "--context-window",
  requestTimeout: "--request-timeout",
  retries: "--retries",
  commandTimeout: "--command-timeout",
};

/**
 * `chapterDecided`: the run's journal fixes the chapter (a resume), so the file names no profile.
 * The file's `profile` beats its `chapter`; a `--chapter` or `--profile` given beats both.
 */
export function withFileSettings(
  argv: readonly string[],
  env: Env,
  file: FileSettings,
  chapterDecided = false,
): { argv: string[]; env: Env } {
  const layered: Record<string, string | undefined> = { ...env };
  for (const [name, variable] of Object.entries(SETTING_ENV)) {
    // Only scalar settings have a variable (SETTING_ENV): never the rules.
    const value = file[name as SettingName] as string | number | boolean | undefined;
    if (value !== undefined && isBlank(env[variable])) layered[variable] = String(value);
  }
  const flags: string[] = [];
  const profileGiven = givesFlag(argv, "--chapter") || givesFlag(argv, "--profile");
  if (!profileGiven && !chapterDecided && file.profile !== undefined) {
    flags.push("--profile", file.profile);
  } else if (!givesFlag(argv, "--profile") && file.chapter !== undefined) {
    flags.push("--chapter", String(file.chapter));
  }
  if (file.network === true) flags.push("--network");
  if (file.language !== undefined) flags.push("--lang", file.language);
  return { argv: [...flags, ...argv], env: layered };
}

/** Whether `argv` gives `flag` (`--flag`, `--flag value` or `--flag=value`). */
export function givesFlag(argv: readonly string[], flag: string): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some(
    (arg) => arg === flag || arg.startsWith(`${flag}=`),
  );
}

function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === "";
}
