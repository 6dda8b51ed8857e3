/**
 * Variables that make a shell run code, or change how it parses and runs every command, before
 * or beside the command it was given. A non-interactive bash sources the file `$BASH_ENV` names
 * and imports functions from `BASH_FUNC_name%%`; an sh reads `$ENV`; `SHELLOPTS` and `BASHOPTS`
 * turn options on (xtrace runs `$PS4`'s substitutions); `IFS` and `CDPATH` change what words and
 * `cd` mean; and the loader and .NET start-up hooks load code into the shell itself (bash, or
 * pwsh). One of these pointing into the workspace would run a file the model wrote before every
 * command, on the host. So none reaches a command, even when asked for with `--pass-env`.
 */

const NAMES = [
  "ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "PS0",
  "PS1",
  "PS2",
  "PS3",
  "PS4",
  "PROMPT_COMMAND",
  "IFS",
  "CDPATH",
  "GLOBIGNORE",
  "EXECIGNORE",
  "POSIXLY_CORRECT",
  "INPUTRC",
  "HISTFILE",
  "TMOUT",
  "ZDOTDIR",
  "LD_PRELOAD",
  "LD_AUDIT",
  "DYLD_INSERT_LIBRARIES",
  "DOTNET_STARTUP_HOOKS",
  "CORECLR_ENABLE_PROFILING",
] as const;

/**
 * Every `BASH_*` name (`BASH_ENV`, `BASH_FUNC_*%%`, `BASH_XTRACEFD`, `BASH_LOADABLES_PATH`…), and
 * the .NET profiler a pwsh would load (`CORECLR_PROFILER_PATH`…).
 */
const PREFIXES = ["BASH_", "CORECLR_PROFILER"] as const;

const EXACT = new Set<string>(NAMES);

/** True for a name that configures the shell rather than the command (matched case-blind). */
export function isShellStartupName(name: string): boolean {
  const upper = name.toUpperCase();
  return EXACT.has(upper) || PREFIXES.some((prefix) => upper.startsWith(prefix));
}
