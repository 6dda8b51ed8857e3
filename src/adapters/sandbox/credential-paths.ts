/**
 * Where, under the home directory, people keep what a sandboxed command must not read: a command's
 * output reaches the model, so a readable key could be disclosed even with no network, and
 * redaction only replaces a key as it is written (`cat ~/.bashrc | rev` gets past it).
 * credential-masks.ts covers each that exists; docs/sandbox.md lists them, in these groups.
 * No entry lies inside another: a mask there would have nothing to be mounted on.
 */
import { SHELL_STARTUP_FILES } from "../shell/index.js";

/** Tools' own keys and tokens. The first six name the list in `--sandbox-unmask`'s error. */
const TOOL_CREDENTIALS = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".kube",
  ".docker/config.json",
  ".config/containers/auth.json",
  ".config/gh",
  ".config/hub",
  ".config/glab-cli",
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pypirc",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".nuget/NuGet/NuGet.Config",
  ".m2/settings-security.xml",
  ".gradle/gradle.properties",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".password-store",
  ".local/share/keyrings",
  ".config/op",
  ".boto",
  ".s3cfg",
  ".pgpass",
  ".my.cnf",
  ".huggingface/token",
  ".cache/huggingface/token",
];

/**
 * What a login or interactive shell reads (shell/startup-files.ts): where `export OPENAI_API_KEY=…`
 * usually lives. The harness runs commands without them (`bash --noprofile --norc -c`, `sh -c`,
 * `pwsh -NoProfile`), so an empty one changes nothing a command relies on. fish keeps `set -Ux`
 * values in its folder.
 */
const SHELL_STARTUP = SHELL_STARTUP_FILES;

/** Variables set for a whole session, and the files people keep their own secrets in. */
const ENVIRONMENT_FILES = [
  ".pam_environment",
  ".config/environment.d",
  ".xprofile",
  ".xsessionrc",
  ".env",
  ".envrc",
  ".secrets",
];

/** Histories: a key typed or pasted at a prompt stays in them. */
const HISTORIES = [
  ".bash_history",
  ".zsh_history",
  ".zhistory",
  ".histfile",
  ".sh_history",
  ".history",
  ".local/share/fish",
  ".local/share/powershell/PSReadLine",
  ".python_history",
  ".ipython/profile_default/history.sqlite",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".sqlite_history",
  ".rediscli_history",
  ".irb_history",
  ".lesshst",
  ".viminfo",
  ".local/state/nvim/shada",
];

/** Other coding agents' stored keys, settings (which may hold keys) and conversation logs. */
const CODING_AGENTS = [
  ".codex",
  ".claude",
  ".claude.json",
  ".claude.json.backup",
  ".gemini",
  ".qwen",
  ".aider",
  ".aider.conf.yml",
  ".continue",
  ".cursor",
  ".config/cursor",
  ".copilot",
  ".config/github-copilot",
  ".pi",
  ".config/opencode",
  ".local/share/opencode",
  ".config/goose",
  ".local/share/amp",
  ".local/share/crush",
  ".config/io.datasette.llm",
];

/** Every path masked, relative to the home directory. */
export const CREDENTIAL_PATHS: readonly string[] = Object.freeze([
  ...TOOL_CREDENTIALS,
  ...SHELL_STARTUP,
  ...ENVIRONMENT_FILES,
  ...HISTORIES,
  ...CODING_AGENTS,
]);
