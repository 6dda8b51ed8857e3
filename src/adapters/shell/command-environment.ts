/**
 * The environment a shell command sees: an allowlist, never the harness's own environment, so the
 * API key and other credentials cannot be read by `echo $OPENAI_API_KEY` or a malicious script.
 */
import { CA_BUNDLE_NAMES } from "./ca-bundle-environment.js";
import { encodedForms } from "./secret-forms.js";
import { loadingKind } from "./loading-variables.js";
import { isShellStartupName } from "./shell-startup-names.js";

const POSIX_NAMES = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
  // Where the .NET runtime lives when it is not in the default place; pwsh (a .NET tool) needs it.
  "DOTNET_ROOT",
] as const;

/** Without these, many Windows programs (and PowerShell itself) misbehave or fail to start. */
const WINDOWS_NAMES = [
  "SystemRoot",
  "SystemDrive",
  "windir",
  "ComSpec",
  "PATHEXT",
  "USERPROFILE",
  "USERNAME",
  "USERDOMAIN",
  "HOMEDRIVE",
  "HOMEPATH",
  "APPDATA",
  "LOCALAPPDATA",
  "ProgramData",
  "ProgramFiles",
  "ProgramFiles(x86)",
  "ProgramW6432",
  "CommonProgramFiles",
  "CommonProgramFiles(x86)",
  "CommonProgramW6432",
  "PUBLIC",
  "ALLUSERSPROFILE",
  "COMPUTERNAME",
  "OS",
  "PROCESSOR_ARCHITECTURE",
  "NUMBER_OF_PROCESSORS",
  "PSModulePath",
] as const;

export const SECRET_PARTS = ["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"] as const;
export const SECRET_PREFIXES = ["OPENAI_"] as const;

export interface CommandEnvironmentOptions {
  /**
   * Extra names the person asked for (`--pass-env NAME`); secret-looking ones and those of a kind
   * that makes a program load code or configuration (loading-variables.ts) are still dropped.
   */
  readonly passEnv: readonly string[];
  readonly platform: NodeJS.Platform;
}

/** True for a name the harness passes to every command anyway (`PATH`, `HOME`, `LC_*`, …). */
export function isDefaultCommandName(name: string, platform: NodeJS.Platform): boolean {
  const windows = platform === "win32";
  const fold = (word: string): string => (windows ? word.toUpperCase() : word);
  const folded = fold(name);
  return (
    folded.startsWith("LC_") ||
    [...POSIX_NAMES, ...(windows ? WINDOWS_NAMES : [])].some((known) => fold(known) === folded)
  );
}

/**
 * Whether a command's environment may hold `name`, whatever its value: one every command gets,
 * the CA bundles the harness adds, or one the person passes with `--pass-env` that is not dropped.
 * A program that reads its variables from the environment (make's `$(NAME)`, `NAME ?= x`) is
 * certain of a value only where this is false.
 */
export function commandEnvironmentMayHold(
  name: string,
  options: CommandEnvironmentOptions,
): boolean {
  const fold = (word: string): string => (options.platform === "win32" ? word.toUpperCase() : word);
  return (
    isDefaultCommandName(name, options.platform) ||
    CA_BUNDLE_NAMES.some((bundle) => fold(bundle) === fold(name)) ||
    (options.passEnv.some((passed) => fold(passed) === fold(name)) &&
      loadingKind(name) === undefined)
  );
}

/** True for names that may hold a credential; such a variable never reaches a command. */
export function looksLikeSecret(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    SECRET_PARTS.some((part) => upper.includes(part)) ||
    SECRET_PREFIXES.some((prefix) => upper.startsWith(prefix))
  );
}

/** Shorter values are too likely to be ordinary words (`true`, a port) to hide from output. */
export const MIN_SECRET_LENGTH = 8;

/**
 * The values of the harness's environment refused to commands as secrets (the API key among
 * them), long enough to be secrets, and their base64 and hex forms (secret-forms.ts): a command
 * that finds one anyway, on the host through /proc/<ppid>/environ say, shows the model
 * `[redacted]` instead. Longest first, so a secret that contains another is replaced whole.
 */
export function knownSecrets(hostEnv: Readonly<Record<string, string | undefined>>): string[] {
  const values = Object.entries(hostEnv)
    .filter(([name, value]) => looksLikeSecret(name) && (value?.length ?? 0) >= MIN_SECRET_LENGTH)
    .flatMap(([, value]) => [value ?? "", ...encodedForms(value ?? "")]);
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

export function buildCommandEnvironment(
  hostEnv: Readonly<Record<string, string | undefined>>,
  options: CommandEnvironmentOptions,
): Record<string, string> {
  // Windows environment names are case-insensitive (`Path`, `PATH`); POSIX names are not.
  const windows = options.platform === "win32";
  const fold = (name: string): string => (windows ? name.toUpperCase() : name);
  const allowed = new Set(
    [
      ...POSIX_NAMES,
      ...(windows ? WINDOWS_NAMES : []),
      ...options.passEnv.filter((name) => loadingKind(name) === undefined),
    ].map(fold),
  );
  const environment: Record<string, string> = {};
  const taken = new Set<string>();
  for (const [name, value] of Object.entries(hostEnv)) {
    if (value === undefined || looksLikeSecret(name) || isShellStartupName(name)) continue;
    const folded = fold(name);
    if (taken.has(folded)) continue;
    if (!allowed.has(folded) && !folded.startsWith("LC_")) continue;
    taken.add(folded);
    environment[name] = value;
  }
  return environment;
}
