/**
 * What `--pass-env` may pass: a variable whose kind is data for the command, never one of the kinds
 * of variable that make a program load code or configuration. Such a variable, set by the person
 * for their own shell, would still make every approved command (and every tool it starts) load
 * what it names, and what it names can be a file the model wrote in the workspace. So the kinds
 * are told apart by the shape of the name (a loader's prefix, a runtime's or tool's namespace, a
 * suffix that means options, a search path, a config file or a program to run), not by a list of
 * the names known today: `JAVA_TOOL_OPTIONS`, `PERL5OPT` and a `FOO_PLUGIN_PATH` not yet written
 * are refused alike. A name of no such kind (`DEBUG`, `CI`, `MY_SETTING`) passes.
 */
import { isShellStartupName } from "./shell-startup-names.js";

export interface LoadingKind {
  /** Why a variable of this kind never reaches a command, ending the notice's sentence. */
  readonly why: string;
  readonly matches: (upper: string) => boolean;
}

const startsWithAny =
  (...prefixes: string[]) =>
  (upper: string): boolean =>
    prefixes.some((prefix) => upper.startsWith(prefix));
const endsWithAny =
  (...suffixes: string[]) =>
  (upper: string): boolean =>
    suffixes.some((suffix) => upper.endsWith(suffix));
const oneOf =
  (...names: string[]) =>
  (upper: string): boolean =>
    names.includes(upper);

/** In order: a name is said under the first kind it is of. */
export const LOADING_KINDS: readonly LoadingKind[] = Object.freeze([
  {
    why: "configures the shell itself (a startup file, functions or options), which could run a file from the workspace before every command",
    matches: isShellStartupName,
  },
  {
    why: "makes the system's loader or C library load the libraries, modules or files it names (LD_*, DYLD_*, GCONV_PATH, GLIBC_TUNABLES, …)",
    matches: (upper) =>
      startsWithAny("LD_", "DYLD_", "MALLOC_")(upper) ||
      oneOf(
        "GLIBC_TUNABLES",
        "GCONV_PATH",
        "LOCPATH",
        "NLSPATH",
        "HOSTALIASES",
        "RES_OPTIONS",
      )(upper),
  },
  {
    why: "belongs to a language runtime or tool that loads code or configuration from it (NODE_*, NPM_CONFIG_*, PYTHON*, PERL*, RUBY*, JAVA*, GIT_*, DOTNET_*, PSModulePath, …)",
    matches: (upper) =>
      startsWithAny(
        "NODE_",
        "NPM_",
        "YARN_",
        "PNPM_",
        "BUN_",
        "DENO_",
        "COREPACK_",
        "TS_NODE_",
        "BABEL_",
        "PYTHON",
        "PIP_",
        "CONDA",
        "VIRTUAL_ENV",
        "PERL",
        "RUBY",
        "GEM_",
        "BUNDLE_",
        "JAVA",
        "_JAVA",
        "JDK_",
        "CLASSPATH",
        "GIT_",
        "DOTNET_",
        "COMPLUS_",
        "CORECLR_",
        "MONO_",
        "PSMODULEPATH",
        "POWERSHELL",
        "LUA_",
        "PHP",
        "TCL",
        "ERL_",
        "CARGO_",
        "RUSTC",
        "RUSTUP_",
        "SSH_",
        "GNUPG",
        "GPG_",
        "OPENSSL_",
        "CURL_",
        "XDG_",
        "VIM",
        "EMACS",
        "TERMINFO",
        "QT_",
        "GTK_",
        "GIO_",
        "GST_",
        "KRB5",
      )(upper) ||
      oneOf(
        "GOPATH",
        "GOROOT",
        "GOFLAGS",
        "GOENV",
        "GOTOOLCHAIN",
        "GOEXPERIMENT",
        "EXINIT",
        "WGETRC",
        "KUBECONFIG",
      )(upper),
  },
  {
    why: "gives a program options or flags (*_OPTIONS, *_OPTS, *FLAGS, *OPT), which can make it load a module, an agent or a file",
    matches: endsWithAny("OPTIONS", "OPTS", "FLAGS", "OPT"),
  },
  {
    why: "tells a program where to find code or configuration to load (*_PATH, *_HOME, *_DIR, *_CONFIG, *RC, *_INIT, *_PROFILE, *LIB, *_PLUGINS, …)",
    matches: endsWithAny(
      "PATH",
      "_HOME",
      "_DIR",
      "_DIRS",
      "CONFIG",
      "_CONF",
      "RC",
      "_INIT",
      "_PROFILE",
      "_STARTUP",
      "LIB",
      "LIBS",
      "_LIBRARY",
      "_PLUGIN",
      "_PLUGINS",
      "_MODULES",
      "_HOOK",
      "_HOOKS",
      "_FILE",
      "_ENV",
    ),
  },
  {
    why: "names a program that other programs run (EDITOR, PAGER, CC, *_COMMAND, *_ASKPASS, …)",
    matches: (upper) =>
      oneOf(
        "EDITOR",
        "VISUAL",
        "PAGER",
        "MANPAGER",
        "BROWSER",
        "LESSOPEN",
        "LESSCLOSE",
        "CC",
        "CXX",
        "CPP",
        "LD",
        "AR",
        "AS",
        "FC",
        "COMSPEC",
        "TERMINAL",
        "SHELL",
      )(upper) ||
      endsWithAny(
        "_EDITOR",
        "_PAGER",
        "ASKPASS",
        "_COMMAND",
        "_CMD",
        "_PROGRAM",
        "_WRAPPER",
        "_SHELL",
        "_EXEC",
      )(upper),
  },
]);

/** The kind that keeps this name from `--pass-env`, matched case-blind; undefined: it may pass. */
export function loadingKind(name: string): LoadingKind | undefined {
  const upper = name.toUpperCase();
  return LOADING_KINDS.find((kind) => kind.matches(upper));
}
