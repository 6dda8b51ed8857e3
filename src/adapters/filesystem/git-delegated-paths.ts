/**
 * Worktree files git runs or reads as config because a repository's config sends it there: the
 * git delegation rule (docs/sandbox.md). `.git` itself is protected by name and layout; these are
 * the files outside it that are just as much git's:
 *
 * - the directory `core.hooksPath` names (every hook in it runs), and for husky v9's `.husky/_`
 *   the directory above it too (its wrappers run `.husky/<hook>`);
 * - every config file `include.path` / `includeIf.*.path` names, followed as git follows them;
 * - any file a config value names by a path (`core.fsmonitor = ./watch`, a filter's `clean`, an
 *   alias's `!./x`, `core.attributesFile`, …): a value with a `/` in it (or its first word) is
 *   taken for a path, relative to the worktree and to the config file, which over-protects a
 *   little (a template file) and misses nothing git could run by path;
 * - the config of a hook manager whose shim is installed as a hook: lefthook (`lefthook.yml`,
 *   `lefthook-local.yml`, … and its `.lefthook/` scripts), pre-commit (`.pre-commit-config.yaml`
 *   or the `--config` its shim names), husky v4 (`.huskyrc*`, `husky.config.js`).
 *
 * Config comes from the system and global files (outside the workspace, but a relative
 * `core.hooksPath` there still names worktree files) and the repository's own, read by the
 * harness, never by running git: a hostile repository's config must not run at decision time.
 */
import { closeSync, constants, lstatSync, readdirSync, readSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { childPath } from "./child-path.js";
import { parseGitConfig, type GitConfigEntry } from "./git-config-file.js";
import { pointerFileTarget } from "./git-directories.js";
import { lstatNow, type Lstat } from "./lstat-once.js";
import { openRegularFileSync } from "./safe-open.js";
import { homeDirectory } from "../home/index.js";

export interface GitDelegatedPath {
  /** Absolute path, real as far as it exists; protected with everything below it. */
  readonly path: string;
  /** Why git uses it, for the refusal: `core.hooksPath in /ws/.git/config`. */
  readonly why: string;
}

export interface GitRepositoryLocation {
  /** The git dir: `.git`, or what a `.git` file's `gitdir:` names. */
  readonly gitDir: string;
  /** The directory holding `.git`; undefined for a bare repository. */
  readonly worktree: string | undefined;
}

/** Git's own limit on nested includes. */
const INCLUDE_DEPTH = 10;
const CONFIG_LIMIT_BYTES = 1024 * 1024;
const HOOK_READ_BYTES = 64 * 1024;
const HOOK_FILE_LIMIT = 64;

/** The repository a `.git` entry (directory or `gitdir:` file) stands for, if any. */
export function repositoryAt(
  dotGit: string,
  lstat: Lstat = lstatNow,
): GitRepositoryLocation | undefined {
  const stats = lstat(dotGit);
  if (stats === undefined) return undefined;
  const worktree = dirname(dotGit);
  // Git stats `.git`, so a link to a git dir (or to a `gitdir:` file) is a repository to git,
  // wherever it points: its config delegates worktree files just the same.
  const entry = stats.isSymbolicLink() ? linkTarget(dotGit) : dotGit;
  if (entry === undefined) return undefined;
  const target = entry === dotGit ? stats : lstat(entry);
  if (target === undefined) return undefined;
  if (target.isDirectory()) return { gitDir: entry, worktree };
  if (!target.isFile()) return undefined;
  const gitDir = pointerFileTarget(entry, "gitdir: ");
  return gitDir === undefined ? undefined : { gitDir, worktree };
}

/** Where a link finally leads, or undefined when it leads nowhere (git could not use it either). */
function linkTarget(link: string): string | undefined {
  try {
    return realpathSync(link);
  } catch {
    return undefined;
  }
}

/**
 * Every repository whose worktree holds `directory`: the `.git` beside it and beside each
 * directory above it, up to the filesystem root. Git stops at the first; a repository further up
 * can still name files down here (`core.hooksPath = vendor/lib/hooks`), so all count.
 */
export function repositoriesAround(
  directory: string,
  lstat: Lstat = lstatNow,
): GitRepositoryLocation[] {
  const found: GitRepositoryLocation[] = [];
  for (let current = directory; ;) {
    let repository: GitRepositoryLocation | undefined;
    try {
      repository = repositoryAt(childPath(current, ".git"), lstat);
    } catch {
      repository = undefined; // a directory on the way we may not search: git could not either
    }
    if (repository !== undefined) found.push(repository);
    const parent = dirname(current);
    if (parent === current) return found;
    current = parent;
  }
}

/** Every path git delegates to for any repository whose worktree holds `directory`. */
export function gitDelegatedPathsAround(
  directory: string,
  context?: DelegationContext,
  lstat: Lstat = lstatNow,
): GitDelegatedPath[] {
  const repositories = repositoriesAround(directory, lstat);
  // Outside any repository (the usual case for a scratch directory) the context is not needed.
  if (repositories.length === 0) return [];
  const known = context ?? defaultDelegationContext();
  return repositories.flatMap((repository) => gitDelegatedPaths(repository, known));
}

/** The system and global config files, as git finds them for the person. */
export function globalGitConfigFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = homeDirectory(env);
  const xdg = env.XDG_CONFIG_HOME ?? join(home, ".config");
  return [
    env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig",
    join(xdg, "git", "config"),
    env.GIT_CONFIG_GLOBAL ?? join(home, ".gitconfig"),
  ];
}

export interface DelegationContext {
  readonly home: string;
  readonly globalConfigs: readonly string[];
}

export function defaultDelegationContext(env: NodeJS.ProcessEnv = process.env): DelegationContext {
  return { home: homeDirectory(env), globalConfigs: globalGitConfigFiles(env) };
}

/** What git, as configured for `repository`, runs or reads as config outside its git dir. */
export function gitDelegatedPaths(
  repository: GitRepositoryLocation,
  context: DelegationContext = defaultDelegationContext(),
): GitDelegatedPath[] {
  return resolveDelegatedPaths(namedDelegatedPaths(repository, context, () => undefined));
}

/** Told each file or directory the scan reads or lists, for a cache to fingerprint. */
export type ScanInput = (path: string) => void;

/**
 * `gitDelegatedPaths` as the config names them, before any is resolved: what depends only on
 * the files passed to `read`, and so may be kept while none of them changes.
 */
export function namedDelegatedPaths(
  repository: GitRepositoryLocation,
  context: DelegationContext,
  read: ScanInput,
): GitDelegatedPath[] {
  const { entries, found, base, hooks } = readRepositoryConfig(repository, context, read);
  for (const { entry, file } of entries) {
    const where = `${entry.section}.${entry.key} in ${file}`;
    if (entry.section === "core" && entry.key === "hookspath") {
      const hooksDir = resolve(base, expandHome(entry.value, context.home));
      found.push({ path: hooksDir, why: `core.hooksPath in ${file}: git runs the hooks in it` });
      if (basename(hooksDir) === "_") {
        // husky v9: `.husky/_/<hook>` runs `.husky/<hook>`.
        found.push({
          path: dirname(hooksDir),
          why: `husky's hooks, run through core.hooksPath in ${file}`,
        });
      }
      continue;
    }
    if (isIncludeKey(entry)) continue; // recorded by readWithIncludes
    // Refs and URL rewrites, never a file git runs or reads (`branch.main.merge = refs/heads/main`).
    if (entry.section === "branch" || entry.section === "url") continue;
    for (const candidate of pathsNamedBy(entry.value, context.home, mayRunCommand(entry))) {
      for (const from of new Set([base, dirname(file)])) {
        found.push({ path: resolve(from, candidate), why: `${where} names it` });
      }
    }
  }
  found.push(...hookManagerFiles(hooks, base, read));
  return found;
}

/** Where git, as configured for a repository, finds its hooks and runs them. */
export interface RepositoryHooks {
  /** `core.hooksPath` (the last one set, as git takes it), else the common git dir's `hooks`. */
  readonly folder: string;
  /** The folder git runs a hook in: the worktree (`core.worktree` honoured), else the git dir. */
  readonly runsIn: string;
}

/** The hooks folder of `repository`, read from the same config files as the delegation scan. */
export function repositoryHooks(
  repository: GitRepositoryLocation,
  context: DelegationContext = defaultDelegationContext(),
): RepositoryHooks {
  const { hooks, base } = readRepositoryConfig(repository, context, () => undefined);
  return { folder: hooks, runsIn: base };
}

interface RepositoryConfig {
  readonly entries: readonly { entry: GitConfigEntry; file: string }[];
  /** The included config files, each already a delegated path. */
  readonly found: GitDelegatedPath[];
  /** Where hooks and commands run: the worktree, or a bare repository's git dir. */
  readonly base: string;
  /** The hooks folder git uses. */
  readonly hooks: string;
}

function readRepositoryConfig(
  repository: GitRepositoryLocation,
  context: DelegationContext,
  read: ScanInput,
): RepositoryConfig {
  const { gitDir } = repository;
  const commonFile = join(gitDir, "commondir");
  read(commonFile);
  const commonDir = (exists(commonFile) ? pointerFileTarget(commonFile, "") : undefined) ?? gitDir;
  const found: GitDelegatedPath[] = [];
  const entries: { entry: GitConfigEntry; file: string }[] = [];
  const configFiles = [
    ...context.globalConfigs,
    join(commonDir, "config"),
    join(gitDir, "config.worktree"),
  ];
  for (const file of configFiles) readWithIncludes(file, context.home, 0, entries, found, read);

  let worktree = repository.worktree;
  for (const { entry, file } of entries) {
    if (entry.section === "core" && entry.key === "worktree") {
      worktree = resolve(dirname(file) === commonDir ? gitDir : dirname(file), entry.value);
    }
  }
  // Hooks and commands run in the worktree (a bare repository: in the git dir).
  const base = worktree ?? gitDir;
  let hooks = join(commonDir, "hooks");
  for (const { entry } of entries) {
    if (entry.section === "core" && entry.key === "hookspath") {
      hooks = resolve(base, expandHome(entry.value, context.home));
    }
  }
  return { entries, found, base, hooks };
}

/**
 * What git's global and system config (and the files they include) name outside any repository:
 * the included files, `core.hooksPath` and every path a value names, taken from the config
 * file's folder and from home. Git uses them in every repository, so they matter wherever the
 * workspace is, a repository or not; a relative path that git resolves per repository is
 * covered by the per-repository scan.
 */
export function globalConfigDelegates(context: DelegationContext): GitDelegatedPath[] {
  const found: GitDelegatedPath[] = [];
  const entries: { entry: GitConfigEntry; file: string }[] = [];
  for (const file of context.globalConfigs) {
    readWithIncludes(file, context.home, 0, entries, found, () => undefined);
  }
  for (const { entry, file } of entries) {
    if (isIncludeKey(entry) || entry.section === "branch" || entry.section === "url") continue;
    const where = `${entry.section}.${entry.key} in ${file}`;
    const named =
      entry.section === "core" && entry.key === "hookspath"
        ? [expandHome(entry.value, context.home)]
        : pathsNamedBy(entry.value, context.home, mayRunCommand(entry));
    for (const candidate of named) {
      for (const from of new Set([dirname(file), context.home])) {
        found.push({ path: resolve(from, candidate), why: `${where} names it` });
      }
    }
  }
  return found;
}

/**
 * Each path as the boundary compares it, real as far as it exists. Worked out at every use, never
 * kept: a link planted between two decisions moves where a named path really is.
 */
export function resolveDelegatedPaths(found: readonly GitDelegatedPath[]): GitDelegatedPath[] {
  return found.map((item) => ({ ...item, path: realAsFarAsItExists(item.path) }));
}

function readWithIncludes(
  file: string,
  home: string,
  depth: number,
  entries: { entry: GitConfigEntry; file: string }[],
  found: GitDelegatedPath[],
  read: ScanInput,
): void {
  read(file);
  const text = readSmallFile(file, CONFIG_LIMIT_BYTES);
  if (text === undefined) return;
  for (const entry of parseGitConfig(text)) {
    entries.push({ entry, file });
    if (!isIncludeKey(entry) || depth >= INCLUDE_DEPTH) continue;
    // Every includeIf counts, whatever its condition: the condition may hold at the next commit.
    const included = resolve(dirname(file), expandHome(entry.value, home));
    found.push({ path: included, why: `git reads it as config (included from ${file})` });
    readWithIncludes(included, home, depth + 1, entries, found, read);
  }
}

function isIncludeKey(entry: GitConfigEntry): boolean {
  return (entry.section === "include" || entry.section === "includeif") && entry.key === "path";
}

/**
 * Paths a config value may name: the whole value and each of its words (a command's program, or
 * a script an interpreter runs: `node tools/clean.js`, `!sh ./x.sh`; after an `=`, an option's
 * value), when they hold a `/` (a bare program name is looked up on PATH) and are not a URL; and,
 * with or without a `/`, every word after a command's first that is not an option: what an
 * interpreter is given (`sh fsmon-hook`, `!sh hook`, `env bash hook`, `python3 -u hook`) is a file
 * it opens from the directory it runs in. A word that names no file protects nothing.
 */
function pathsNamedBy(value: string, home: string, command: boolean): string[] {
  const trimmed = value.trim().replace(/^!/u, "").trim();
  const words = [...trimmed.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/gu)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? "",
  );
  // And every token of a shell line (`!sh -c 'exec hooks/lint.sh'`), quotes and operators apart.
  const tokens = trimmed.split(/[\s"'`;|&()<>]+/u);
  const candidates = [trimmed, ...words, ...tokens].flatMap((word) => [
    word,
    word.split("=").at(-1) ?? "",
  ]);
  const withSlash = candidates.filter(
    (candidate) => candidate.includes("/") && !candidate.includes("://"),
  );
  const operands = command ? interpreterOperands(trimmed) : [];
  return [...new Set([...withSlash, ...operands].map((c) => expandHome(c, home)))];
}

/**
 * Sections whose values are names, formats or colours, never a command git runs: a multi-word
 * `user.name` must not make a worktree file (or, in the sandbox, a nested worktree) protected.
 */
const DATA_SECTIONS = new Set([
  "user",
  "author",
  "committer",
  "color",
  "i18n",
  "init",
  "pretty",
  "format",
  "log",
  "column",
  "advice",
  "status",
  "safe",
  "blame",
  "tag",
  "versionsort",
]);

/**
 * Whether a value may be a command line whose words an interpreter opens as files: any value
 * outside DATA_SECTIONS, unknown keys included; an alias only when it starts with `!` (without,
 * its words are git's own arguments).
 */
function mayRunCommand(entry: GitConfigEntry): boolean {
  if (DATA_SECTIONS.has(entry.section)) return false;
  return entry.section !== "alias" || entry.value.trim().startsWith("!");
}

/**
 * The words after the first of each simple command in a shell line, options left out (an
 * option's `=value` kept): `sh fsmon-hook`, `a && bash -e hook`. A one-word value (`true`,
 * `main`) names no operand; a command's first word is its program, found on PATH.
 */
function interpreterOperands(line: string): string[] {
  const operands: string[] = [];
  for (const command of line.split(/[;|&()\n]+/u)) {
    const words = command
      .split(/\s+/u)
      .map((word) => word.replace(/^["'`]+|["'`]+$/gu, ""))
      .filter((word) => word !== "");
    for (const word of words.slice(1)) {
      if (word.includes("://")) continue;
      if (!word.startsWith("-")) operands.push(word);
      else if (word.includes("=")) operands.push(word.slice(word.indexOf("=") + 1));
    }
  }
  return operands.filter((word) => word !== "" && word !== "." && word !== "..");
}

function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

const LEFTHOOK_NAMES = ["lefthook", ".lefthook", "lefthook-local", ".lefthook-local"];
const LEFTHOOK_EXTENSIONS = ["yml", "yaml", "json", "jsonc", "toml"];
const HUSKY_V4_FILES = [
  ".huskyrc",
  ".huskyrc.json",
  ".huskyrc.yaml",
  ".huskyrc.yml",
  ".huskyrc.js",
  ".huskyrc.cjs",
  "husky.config.js",
  "husky.config.cjs",
];

/**
 * The config a hook manager's shim reads at each commit, found by reading the installed hooks
 * (at most HOOK_FILE_LIMIT of them, HOOK_READ_BYTES each; `.sample` files never run).
 */
function hookManagerFiles(hooksDir: string, worktree: string, read: ScanInput): GitDelegatedPath[] {
  const found: GitDelegatedPath[] = [];
  read(hooksDir);
  let names: string[];
  try {
    names = readdirSync(hooksDir)
      .filter((name) => !name.endsWith(".sample"))
      .sort();
  } catch {
    return found;
  }
  for (const name of names.slice(0, HOOK_FILE_LIMIT)) {
    const hook = join(hooksDir, name);
    read(hook);
    const text = readSmallFile(hook, HOOK_READ_BYTES, true);
    if (text === undefined) continue;
    const why = (manager: string): string => `${manager}'s config, read by the hook ${hook}`;
    if (/lefthook/iu.test(text)) {
      for (const stem of LEFTHOOK_NAMES) {
        for (const extension of LEFTHOOK_EXTENSIONS) {
          found.push({ path: join(worktree, `${stem}.${extension}`), why: why("lefthook") });
        }
        found.push({ path: join(worktree, stem), why: why("lefthook") });
      }
      found.push({ path: join(worktree, ".config", "lefthook.yml"), why: why("lefthook") });
      found.push({ path: join(worktree, ".config", "lefthook.yaml"), why: why("lefthook") });
    }
    if (
      /pre[-_]commit/u.test(text) &&
      /generated by pre-commit|pre_commit|INSTALL_PYTHON/u.test(text)
    ) {
      const configs = [...text.matchAll(/--config[= ]['"]?([^'"\s)]+)/gu)].map(
        (match) => match[1] ?? "",
      );
      for (const config of [...configs, ".pre-commit-config.yaml", ".pre-commit-config.yml"]) {
        if (config !== "") found.push({ path: resolve(worktree, config), why: why("pre-commit") });
      }
    }
    if (/husky/iu.test(text)) {
      for (const file of HUSKY_V4_FILES) {
        found.push({ path: join(worktree, file), why: why("husky") });
      }
    }
  }
  return found;
}

/**
 * A regular file's text, at most `limit` bytes (`partial`: the first `limit` bytes of a longer
 * one); undefined when it is missing, a link, not regular, or too long. Never blocks on a FIFO.
 */
function readSmallFile(path: string, limit: number, partial = false): string | undefined {
  if (!exists(path)) return undefined; // the usual answer, without building an exception
  let opened;
  try {
    // Followed: a person's ~/.gitconfig is often a link into their dotfiles, and git follows it.
    opened = openRegularFileSync(realpathSync.native(path), constants.O_RDONLY);
  } catch {
    return undefined;
  }
  const { handle: fd, stats } = opened;
  try {
    if (!partial && stats.size > limit) return undefined;
    // Sized by fstat, not a fixed chunk: this runs at every write decision.
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, limit));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.toString("utf8", 0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** `path` with its deepest existing ancestor's real path in front: how the boundary compares. */
function realAsFarAsItExists(path: string): string {
  const missing: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      if (exists(current)) return join(realpathSync.native(current), ...missing.reverse());
    } catch {
      // a dangling link: as good as missing
    }
    if (dirname(current) === current) return path;
    missing.push(basename(current));
  }
}

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR: a file on the way
  }
}
