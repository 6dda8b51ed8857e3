/**
 * The one list of workspace files that something other than the person loads or runs later, on
 * its own: the next agent session (any chapter), an editor opening the folder, CI on the next
 * push, the shell on `cd`, a package manager on install. Chapter 4 writes inside the workspace
 * without asking; a write to one of these asks instead (a diff and [y/N] at a terminal, a waiting
 * request without one), because its effect outlives the run. docs/sandbox.md shows the list.
 *
 * Files git runs or reads as config (`.git`, hooks, what `core.hooksPath` or an alias names) are
 * not here: every chapter refuses them outright (adapters/filesystem's git rules).
 */
import { nameKey } from "../common/name-key.js";

export interface LoadedLaterEntry {
  /** How the docs show it: `AGENTS.md (any folder)`, `.vscode/`. */
  readonly pattern: string;
  /** Who loads or runs it, and when. */
  readonly reason: string;
  /** Lower-case file names matched in any folder. */
  readonly names?: readonly string[];
  /** Lower-case folder names: everything below one of them, at any depth. */
  readonly folders?: readonly string[];
  /** Lower-case name suffixes matched in any folder (`.code-workspace`). */
  readonly suffixes?: readonly string[];
}

export const LOADED_LATER_FILES: readonly LoadedLaterEntry[] = Object.freeze([
  {
    pattern:
      "AGENTS.md, AGENTS.override.md, AGENT.md, CLAUDE.md, CLAUDE.local.md, GEMINI.md, QWEN.md, CRUSH.md, WARP.md, .cursorrules, .windsurfrules, .clinerules, .roorules, .goosehints, .rules (any folder)",
    reason:
      "instructions the next agent session loads into its prompt, in any chapter (this harness and other coding agents)",
    names: [
      "agents.md",
      "agents.override.md",
      "agent.md",
      "claude.md",
      "claude.local.md",
      "gemini.md",
      "qwen.md",
      "crush.md",
      "warp.md",
      ".cursorrules",
      ".windsurfrules",
      ".clinerules",
      ".roorules",
      ".roomodes",
      ".goosehints",
      ".rules",
    ],
  },
  {
    pattern:
      ".cursor/, .claude/, .gemini/, .codex/, .continue/, .windsurf/, .kiro/, .roo/, .clinerules/, .amazonq/, .junie/, .augment/, .opencode/, .qwen/, .pi/, .trae/, .kilocode/, .openhands/, .crush/, .aider.conf.yml, .mcp.json, opencode.json, crush.json",
    reason:
      "another coding agent's settings, rules, hooks and MCP servers, loaded or started when it starts here",
    folders: [
      ".cursor",
      ".claude",
      ".gemini",
      ".codex",
      ".continue",
      ".windsurf",
      ".kiro",
      ".roo",
      ".clinerules",
      ".amazonq",
      ".junie",
      ".augment",
      ".opencode",
      ".qwen",
      ".pi",
      ".trae",
      ".kilocode",
      ".openhands",
      ".crush",
    ],
    names: [
      ".aider.conf.yml",
      ".mcp.json",
      "opencode.json",
      "opencode.jsonc",
      "crush.json",
      ".crush.json",
    ],
  },
  {
    pattern:
      ".vscode/, .idea/, .zed/, .fleet/, .helix/, *.code-workspace, *.sublime-project, .nvim.lua, .nvimrc, .exrc, .lazy.lua",
    reason:
      "editor settings and tasks: an editor opening the folder runs its tasks and the programs its settings name",
    folders: [".vscode", ".idea", ".zed", ".fleet", ".helix"],
    names: [".nvim.lua", ".nvimrc", ".exrc", ".lazy.lua"],
    suffixes: [".code-workspace", ".sublime-project"],
  },
  {
    pattern: ".devcontainer/",
    reason: "a dev container's commands run when an editor or CI opens the folder",
    folders: [".devcontainer"],
  },
  {
    pattern: ".github/ (workflows, actions, Copilot instructions)",
    reason: "CI runs its workflows and actions at the next push; Copilot loads its instructions",
    folders: [".github"],
  },
  {
    pattern:
      ".gitlab-ci.yml, .circleci/, .buildkite/, .travis.yml, azure-pipelines.yml, Jenkinsfile",
    reason: "CI runs them at the next push",
    folders: [".circleci", ".buildkite"],
    names: [".gitlab-ci.yml", ".travis.yml", "azure-pipelines.yml", "jenkinsfile"],
  },
  {
    pattern:
      ".envrc, mise.toml, .mise.toml, mise.local.toml, .mise/, mise/, .config/mise/, .tool-versions",
    reason: "the shell loads them on `cd` into the folder (direnv, mise, asdf)",
    folders: [".mise", "mise"],
    names: [
      ".envrc",
      "mise.toml",
      ".mise.toml",
      "mise.local.toml",
      ".mise.local.toml",
      ".tool-versions",
    ],
  },
  {
    pattern: ".env, .env.local, .env.development, .env.test, .env.production (and their .local)",
    reason:
      "variables that direnv's `dotenv`, mise, an editor's run and debug and a framework's dev server load into what they start, where NODE_OPTIONS, PYTHONSTARTUP or LD_PRELOAD run code",
    names: [
      ".env",
      ".env.local",
      ".env.development",
      ".env.development.local",
      ".env.test",
      ".env.test.local",
      ".env.production",
      ".env.production.local",
    ],
  },
  {
    pattern: ".husky/, .pre-commit-config.yaml, lefthook.yml, .lefthook.yml",
    reason:
      "git hooks a hook manager installs and runs at the next commit (refused outright once git is configured to run them)",
    folders: [".husky", ".lefthook"],
    names: [
      ".pre-commit-config.yaml",
      ".pre-commit-config.yml",
      "lefthook.yml",
      "lefthook.yaml",
      ".lefthook.yml",
      ".lefthook.yaml",
    ],
  },
  {
    pattern:
      "package.json, .npmrc, .yarnrc, .yarnrc.yml, .pnpmfile.cjs, pnpm-workspace.yaml, bunfig.toml",
    reason:
      "a package manager runs their scripts and the programs they name at the next install or npm command (the scripts a grant binds among them)",
    names: [
      "package.json",
      ".npmrc",
      ".yarnrc",
      ".yarnrc.yml",
      ".pnpmfile.cjs",
      "pnpm-workspace.yaml",
      "bunfig.toml",
    ],
  },
  {
    pattern: "setup.py, pyproject.toml, Gemfile, gems.rb, .bundle/",
    reason:
      "pip runs setup.py, or the build backend pyproject.toml names, and bundler runs the Gemfile as Ruby, at the next install",
    folders: [".bundle"],
    names: ["setup.py", "pyproject.toml", "gemfile", "gems.rb"],
  },
  {
    pattern: "eslint.config.*, .eslintrc.js, .eslintrc.cjs, prettier.config.*, .prettierrc.js, …",
    reason:
      "an editor's ESLint or Prettier support runs these JavaScript configs when it opens the folder",
    names: [
      "eslint.config.js",
      "eslint.config.mjs",
      "eslint.config.cjs",
      "eslint.config.ts",
      "eslint.config.mts",
      "eslint.config.cts",
      ".eslintrc.js",
      ".eslintrc.cjs",
      "prettier.config.js",
      "prettier.config.mjs",
      "prettier.config.cjs",
      "prettier.config.ts",
      ".prettierrc.js",
      ".prettierrc.mjs",
      ".prettierrc.cjs",
      ".prettierrc.ts",
    ],
  },
  {
    pattern: ".cargo/, rust-toolchain, rust-toolchain.toml",
    reason:
      "cargo loads its config (a wrapper for rustc, a runner for what it builds) and rustup the toolchain named here at the next cargo command; an editor's Rust support runs cargo when it opens the folder",
    folders: [".cargo"],
    names: ["rust-toolchain", "rust-toolchain.toml"],
  },
  {
    pattern:
      "Directory.Build.props, Directory.Build.targets, Directory.Build.rsp, Directory.Packages.props, NuGet.Config",
    reason:
      "MSBuild imports them into every project below at the next build or restore (an editor's C# support runs one when it opens the folder); NuGet.Config says where packages come from",
    names: [
      "directory.build.props",
      "directory.build.targets",
      "directory.build.rsp",
      "directory.packages.props",
      "nuget.config",
    ],
  },
  {
    pattern:
      "gradlew, gradle-wrapper.properties, gradle-wrapper.jar, gradle.properties, mvnw, .mvn/, .sbtopts, .jvmopts",
    reason:
      "the Gradle, Maven or sbt launcher, the distribution it downloads and the JVM options it starts with, run at the next build (an IDE runs the wrapper when it opens the folder)",
    folders: [".mvn"],
    names: [
      "gradlew",
      "gradlew.bat",
      "gradle-wrapper.properties",
      "gradle-wrapper.jar",
      "gradle.properties",
      "mvnw",
      "mvnw.cmd",
      ".sbtopts",
      ".jvmopts",
    ],
  },
  {
    pattern: ".pdbrc, .irbrc, .pryrc, .gdbinit, .lldbinit",
    reason: "a debugger or REPL started in the folder runs the commands in them",
    names: [".pdbrc", ".irbrc", ".pryrc", ".gdbinit", ".lldbinit"],
  },
  {
    pattern: ".hg/, .jj/, .sl/",
    reason:
      "another version control's metadata: Mercurial, Jujutsu and Sapling run the hooks and programs its config names at the next command",
    folders: [".hg", ".jj", ".sl"],
  },
  {
    pattern: ".gitattributes",
    reason: "git picks the filter, diff and merge programs it runs for each file by it",
    names: [".gitattributes"],
  },
]);

/**
 * A link that makes a file the host loads out of one with an ordinary name (`AGENTS.md ->
 * docs/rules.md`, `.github/workflows/ci.yml -> ../../ci.yml`): the link, workspace-relative and
 * `/`-separated, and why what it leads to is loaded.
 */
export interface LoadedThroughLink {
  readonly link: string;
  readonly reason: string;
}

/**
 * Why a file at `path` (workspace-relative, `/`-separated, as named or as a link makes it land)
 * is loaded or run later, or undefined for an ordinary file. Names compare as a case-blind
 * filesystem may take them (name-key.ts: `AGENTS.MD`, `agentſ.md`, `.gıthub`, `AGENTS.md.`):
 * some loaders and filesystems do, and asking once too often costs a question, not a file.
 */
export function loadedLaterReason(path: string): string | undefined {
  const parts = path
    .split(/[/\\]+/u)
    .map(nameKey)
    .filter((part) => part !== "" && part !== ".");
  const name = parts.at(-1);
  if (name === undefined) return undefined;
  const folders = parts.slice(0, -1);
  const entry = LOADED_LATER_FILES.find(
    (candidate) =>
      candidate.names?.includes(name) === true ||
      candidate.suffixes?.some((suffix) => name.endsWith(suffix)) === true ||
      folders.some((folder) => candidate.folders?.includes(folder) === true),
  );
  return entry?.reason;
}
