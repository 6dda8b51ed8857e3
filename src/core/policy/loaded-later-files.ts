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
  /**
   * Lower-case name starts matched in any folder, for a tool that reads every form of its config
   * (`.eslintrc`, `.eslintrc.json`, `.eslintrc.yml`, …: each can name code it loads).
   */
  readonly prefixes?: readonly string[];
  /**
   * Installed code (`node_modules/`, `.venv/`): a file tool's write is asked, but a command may
   * write there, as every install does, so the sandbox leaves it writable.
   */
  readonly commandsWrite?: true;
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
      ".vscode/, .idea/, .zed/, .fleet/, .helix/, *.code-workspace, *.sublime-project, .nvim.lua, .nvimrc, .exrc, .vimrc, .lvimrc, .lazy.lua, .dir-locals.el",
    reason:
      "editor settings and tasks: an editor opening the folder runs its tasks and the programs its settings name",
    folders: [".vscode", ".idea", ".zed", ".fleet", ".helix"],
    names: [
      ".nvim.lua",
      ".nvimrc",
      ".exrc",
      ".vimrc",
      ".lvimrc",
      ".lazy.lua",
      ".dir-locals.el",
      ".dir-locals-2.el",
    ],
    suffixes: [".code-workspace", ".sublime-project"],
  },
  {
    pattern: ".devcontainer/, .devcontainer.json",
    reason: "a dev container's commands run when an editor or CI opens the folder",
    folders: [".devcontainer"],
    names: [".devcontainer.json"],
  },
  {
    pattern: ".github/ (workflows, actions, Copilot instructions)",
    reason: "CI runs its workflows and actions at the next push; Copilot loads its instructions",
    folders: [".github"],
  },
  {
    pattern:
      ".gitlab-ci.yml, .gitlab/, .gitea/, .forgejo/, .circleci/, .buildkite/, .woodpecker/, .semaphore/, .travis.yml, azure-pipelines.yml, bitbucket-pipelines.yml, .drone.yml, .woodpecker.yml, appveyor.yml, .cirrus.yml, .gitpod.yml, Jenkinsfile",
    reason: "CI runs them at the next push (a cloud workspace when it opens the repository)",
    folders: [
      ".gitlab",
      ".gitea",
      ".forgejo",
      ".circleci",
      ".buildkite",
      ".woodpecker",
      ".semaphore",
    ],
    names: [
      ".gitlab-ci.yml",
      ".travis.yml",
      "azure-pipelines.yml",
      "bitbucket-pipelines.yml",
      ".drone.yml",
      ".woodpecker.yml",
      ".woodpecker.yaml",
      "appveyor.yml",
      ".appveyor.yml",
      ".cirrus.yml",
      ".gitpod.yml",
      ".gitpod.dockerfile",
      "jenkinsfile",
    ],
  },
  {
    pattern:
      ".envrc, mise.toml, .mise.toml, mise.local.toml, .mise/, mise/, .config/mise/, .tool-versions, .rvmrc, .autoenv",
    reason: "the shell loads them on `cd` into the folder (direnv, mise, asdf, rvm, autoenv)",
    folders: [".mise", "mise"],
    names: [
      ".envrc",
      ".rvmrc",
      ".autoenv",
      ".autoenv.zsh",
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
    pattern: ".lintstagedrc*, lint-staged.config.*, .commitlintrc*, commitlint.config.*",
    reason:
      "a git hook's lint-staged runs the commands in its config, and commitlint loads its config (a .js one as code), at the next commit",
    prefixes: [".lintstagedrc", "lint-staged.config.", ".commitlintrc", "commitlint.config."],
  },
  {
    pattern:
      "package.json, .npmrc, .yarnrc, .yarnrc.yml, .pnpmfile.cjs, pnpm-workspace.yaml, bunfig.toml, binding.gyp, composer.json, patches/",
    reason:
      "a package manager runs their scripts and the programs they name at the next install or npm command (the scripts a grant binds among them; node-gyp a binding.gyp; the patches it applies)",
    folders: ["patches"],
    names: [
      "binding.gyp",
      "composer.json",
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
    pattern:
      "package-lock.json, npm-shrinkwrap.json, yarn.lock, pnpm-lock.yaml, bun.lock(b), deno.lock, .pnp.cjs, .pnp.loader.mjs, poetry.lock, Pipfile(.lock), uv.lock, uv.toml, pdm.lock, requirements*, constraints.txt, requirements/, environment.yml, Gemfile.lock, Podfile(.lock), Cargo.lock, composer.lock, flake.lock",
    reason:
      "the next install fetches the packages they pin, from the URLs and indexes they name, and runs their install scripts (a lockfile holds both the URL and the checksum it is checked against); Yarn's PnP loader runs at every yarn command and in the editor",
    folders: ["requirements"],
    names: [
      "package-lock.json",
      "npm-shrinkwrap.json",
      "yarn.lock",
      "pnpm-lock.yaml",
      "bun.lock",
      "bun.lockb",
      "deno.lock",
      ".pnp.cjs",
      ".pnp.js",
      ".pnp.loader.mjs",
      "poetry.lock",
      "pipfile",
      "pipfile.lock",
      "uv.lock",
      "uv.toml",
      "pdm.lock",
      "constraints.txt",
      "environment.yml",
      "environment.yaml",
      "gemfile.lock",
      "gems.locked",
      "podfile",
      "podfile.lock",
      "cargo.lock",
      "composer.lock",
      "flake.lock",
    ],
    prefixes: ["requirements", "dev-requirements", "test-requirements"],
  },
  {
    pattern: "shell.nix, default.nix, flake.nix, devenv.nix, devenv.yaml",
    reason:
      "direnv's use nix or use flake (and nix-shell, nix develop) evaluate them and run their shellHook on entering the folder",
    names: ["shell.nix", "default.nix", "flake.nix", "devenv.nix", "devenv.yaml"],
  },
  {
    pattern: "setup.py, pyproject.toml, Gemfile, gems.rb, .bundle/",
    reason:
      "pip runs setup.py, or the build backend pyproject.toml names, and bundler runs the Gemfile as Ruby, at the next install",
    folders: [".bundle"],
    names: ["setup.py", "pyproject.toml", "gemfile", "gems.rb"],
  },
  {
    pattern:
      "eslint.config.*, .eslintrc*, prettier.config.*, .prettierrc*, stylelint.config.*, .stylelintrc*, tailwind.config.*, babel.config.*, .babelrc*, postcss.config.*, .postcssrc*, .rubocop*.yml",
    reason:
      "an editor's ESLint, Prettier, Stylelint, Tailwind, PostCSS or RuboCop support loads these configs, and the parsers, plugins and code they name (RuboCop's require:), when it opens the folder",
    prefixes: [
      "eslint.config.",
      ".eslintrc",
      "prettier.config.",
      ".prettierrc",
      "stylelint.config.",
      ".stylelintrc",
      "tailwind.config.",
      "babel.config.",
      ".babelrc",
      "postcss.config.",
      ".postcssrc",
      ".rubocop",
    ],
  },
  {
    pattern:
      "vitest.config.*, vite.config.*, jest.config.*, playwright.config.*, .mocharc*, karma.conf.*, cypress.config.*, nuxt.config.*, svelte.config.*, astro.config.*, rollup.config.*, webpack.config.*, tsup.config.*, schema.prisma",
    reason:
      "an editor's test runner (Vitest, Jest, Playwright, Mocha, Karma, Cypress) loads these configs to find the tests when it opens the folder, and a framework's install step or the build a prepare script runs (nuxt prepare, svelte-kit sync, prisma generate, rollup -c) runs what they name",
    names: ["schema.prisma"],
    prefixes: [
      "vitest.config.",
      "vitest.workspace.",
      "vite.config.",
      "jest.config.",
      "playwright.config.",
      ".mocharc",
      "karma.conf.",
      "cypress.config.",
      "nuxt.config.",
      "svelte.config.",
      "astro.config.",
      "rollup.config.",
      "webpack.config.",
      "tsup.config.",
    ],
  },
  {
    pattern:
      "conftest.py, pytest.ini, tox.ini, setup.cfg, .pylintrc, pylintrc, mypy.ini, .mypy.ini, .flake8",
    reason:
      "an editor's Python support (test discovery, pylint, mypy, flake8) imports them, and the plugins and hooks they name, when it opens the folder",
    names: [
      "conftest.py",
      "pytest.ini",
      ".pytest.ini",
      "tox.ini",
      "setup.cfg",
      ".pylintrc",
      "pylintrc",
      "mypy.ini",
      ".mypy.ini",
      ".flake8",
    ],
  },
  {
    pattern: "node_modules/, .yarn/, .venv/, venv/ (commands write them; the file tools ask)",
    reason:
      "installed packages: an editor runs the linters, formatters and language servers there, yarn the release yarnPath names, and a virtual environment's interpreter its .pth files and activate script",
    folders: ["node_modules", ".yarn", ".venv", "venv"],
    commandsWrite: true,
  },
  {
    pattern: "Makefile, makefile, GNUmakefile, *.mk, CMakeLists.txt, *.cmake, CMakePresets.json",
    reason:
      "an editor's Makefile or CMake support runs make --dry-run (which runs $(shell …)) or configures CMake (execute_process) when it opens the folder",
    names: [
      "makefile",
      "gnumakefile",
      "cmakelists.txt",
      "cmakepresets.json",
      "cmakeuserpresets.json",
    ],
    suffixes: [".mk", ".cmake"],
  },
  {
    pattern: ".cargo/, rust-toolchain, rust-toolchain.toml, build.rs, Cargo.toml",
    reason:
      "cargo loads its config (a wrapper for rustc, a runner for what it builds) and rustup the toolchain named here at the next cargo command; an editor's Rust support runs cargo, and the build scripts, when it opens the folder",
    folders: [".cargo"],
    names: ["rust-toolchain", "rust-toolchain.toml", "build.rs", "cargo.toml"],
  },
  {
    pattern:
      "Directory.Build.props, Directory.Build.targets, Directory.Build.rsp, Directory.Packages.props, NuGet.Config, *.csproj, *.fsproj, *.vbproj, *.proj, *.props, *.targets",
    reason:
      "MSBuild runs the projects and imports these into every project below at the next build or restore (an editor's C# support runs one when it opens the folder); NuGet.Config says where packages come from",
    names: [
      "directory.build.props",
      "directory.build.targets",
      "directory.build.rsp",
      "directory.packages.props",
      "nuget.config",
    ],
    suffixes: [".csproj", ".fsproj", ".vbproj", ".proj", ".props", ".targets"],
  },
  {
    pattern:
      "gradlew, gradle-wrapper.properties, gradle-wrapper.jar, gradle.properties, build.gradle(.kts), settings.gradle(.kts), pom.xml, build.sbt, mvnw, .mvn/, .sbtopts, .jvmopts, .bazelrc, .bazeliskrc, .bazelversion, tools/bazel, WORKSPACE(.bazel), MODULE.bazel, BUILD(.bazel), *.bzl",
    reason:
      "the Gradle, Maven, sbt or Bazel launcher, the build it runs, the distribution it downloads and the JVM options it starts with, run at the next build (an IDE runs the build when it opens the folder)",
    folders: [".mvn"],
    names: [
      "build.gradle",
      "build.gradle.kts",
      "settings.gradle",
      "settings.gradle.kts",
      "pom.xml",
      "build.sbt",
      ".bazelrc",
      ".bazeliskrc",
      ".bazelversion",
      "bazel",
      "workspace",
      "workspace.bazel",
      "module.bazel",
      "build",
      "build.bazel",
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
    suffixes: [".bzl"],
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
  return loadedLaterEntry(namesOf(path))?.reason;
}

/**
 * `loadedLaterReason`, but nothing inside installed code (`node_modules/`, `.venv/`, `.yarn/`):
 * what the sandbox holds read-only from a command (every install writes there), and what the
 * links the scan follows may name (a monorepo links each of its packages from `node_modules`,
 * which would make every write in them a question). A file tool's write there is still asked.
 */
export function reasonOutsideInstalledCode(path: string): string | undefined {
  const parts = namesOf(path);
  const installed = parts.slice(0, -1).some((folder) => COMMANDS_WRITE_FOLDERS.has(folder));
  return installed ? undefined : loadedLaterEntry(parts)?.reason;
}

/** Folders of installed code (`node_modules`, `.venv`, …): nothing below them is held from commands. */
export const COMMANDS_WRITE_FOLDERS: ReadonlySet<string> = new Set(
  LOADED_LATER_FILES.flatMap((entry) =>
    entry.commandsWrite === true ? (entry.folders ?? []) : [],
  ),
);

function namesOf(path: string): string[] {
  return path
    .split(/[/\\]+/u)
    .map(nameKey)
    .filter((part) => part !== "" && part !== ".");
}

function loadedLaterEntry(parts: readonly string[]): LoadedLaterEntry | undefined {
  const name = parts.at(-1);
  if (name === undefined) return undefined;
  const folders = parts.slice(0, -1);
  return LOADED_LATER_FILES.find(
    (candidate) =>
      candidate.names?.includes(name) === true ||
      candidate.suffixes?.some((suffix) => name.endsWith(suffix)) === true ||
      candidate.prefixes?.some((prefix) => name.startsWith(prefix)) === true ||
      folders.some((folder) => candidate.folders?.includes(folder) === true),
  );
}
