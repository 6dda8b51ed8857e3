import { lstatSync, mkdirSync, readdirSync, realpathSync, type Dirent, type Stats } from "node:fs";
import path from "node:path";
import type {
  CommandOptions,
  CommandResult,
  CommandRunner,
} from "../../core/ports/command-runner.js";
import { environmentNamesOf } from "../../core/ports/command-runner.js";
import { bubblewrapArgs } from "./bubblewrap-args.js";
import { gitDelegatedBinds } from "./git-delegated-binds.js";
import { hasPlaceholderShape } from "./placeholder-shape.js";
import { rootGitNamesToHold } from "./root-git-holds.js";
import {
  absentCoverage,
  emptyAtRoot,
  holdPlaceholders,
  releasePlaceholders,
} from "./absent-placeholders.js";
import {
  DirectoryPlaceholderLedger,
  MemoryPlaceholderLedger,
  type PlaceholderLedger,
} from "./placeholder-ledger.js";
import { changedNotes, identitiesOf, type Identities } from "./protected-identity.js";
import {
  installedProgramsBefore,
  installedProgramsMade,
  type InstalledPrograms,
} from "./installed-programs.js";
import {
  loadedLaterBefore,
  loadedLaterBinds,
  loadedLaterSnapshot,
  madeDuringCommand,
  type LoadedLaterBefore,
  type LoadedLaterClassifier,
} from "./loaded-later-binds.js";
import {
  posixShellArgs,
  powerShellCommandArgs,
  powerShellDisplayName,
  powerShellEnvironment,
  type PosixShellKind,
} from "../shell/index.js";
import {
  hasGitDirectoryLayout,
  isGitDirectoryName,
  isWithinRoot,
  pointerFileTarget,
  errorCode,
} from "../filesystem/index.js";
import { SandboxContentError, SandboxSetupError } from "./sandbox-errors.js";
import { runSandboxedProcess, SECCOMP_FD, STATUS_FD } from "./sandboxed-process.js";
import { noSeccompTable, sandboxHardening, type SandboxHardening } from "./sandbox-hardening.js";
import { liveHostPaths } from "./proc-masks.js";
import { credentialMasks } from "./credential-masks.js";
import { makeEmptyFile } from "./empty-file.js";
import { runInCgroup, type SandboxCgroups } from "./cgroup-run.js";
import { failureNotes, withNotes } from "./failure-notes.js";
import { prlimitArgs, type ResourceLimits } from "./resource-limits.js";
import {
  KEPT_STORES,
  PER_COMMAND_IN_CACHE,
  SANDBOX_CACHE,
  sandboxEnvironment,
} from "./sandbox-environment.js";

export interface SandboxShell {
  /** Absolute host path of bash or sh; the root filesystem is visible read-only inside. */
  readonly executable: string;
  readonly kind: PosixShellKind;
}

/**
 * PowerShell inside the sandbox, as shell selection planned it: pwsh, or for a .NET tool install
 * the trusted `dotnet` running the tool's pwsh.dll (its shim would start a workspace `./dotnet`).
 */
export interface SandboxPowerShell {
  readonly executable: string;
  readonly entryPoint?: string;
}

/**
 * pwsh creates its module-analysis cache and module folder under XDG_CACHE_HOME and XDG_DATA_HOME
 * (default ~/.cache, ~/.local/share) at start-up and crashes (exit 134) when it cannot: the home
 * directory is read-only in here. These private ones live on the sandbox's own /tmp tmpfs and go
 * with it; HOME itself stays the person's, read-only, as for bash.
 */
export const SANDBOX_POWERSHELL_DIRECTORIES = Object.freeze({
  XDG_CACHE_HOME: "/tmp/.cache",
  XDG_DATA_HOME: "/tmp/.local/share",
});

/** What the host loads or runs later, as a command in the workspace must find it. */
export interface SandboxHostFiles {
  /** Real paths inside the workspace to bind read-only (a folder on PATH, a linked dotfile). */
  readonly readOnly: readonly string[];
  /** Real paths inside the workspace to keep as they are, made or not: see `keepUnchanged`. */
  readonly keepUnchanged: readonly string[];
}

const NO_HOST_FILES: SandboxHostFiles = Object.freeze({ readOnly: [], keepUnchanged: [] });

export interface BubblewrapRunnerOptions {
  /** Absolute path of bwrap, from executable-resolution (never from the workspace). */
  readonly bwrapPath: string;
  readonly shell: SandboxShell;
  /** Set when commands run in PowerShell; `shell` is then only what the probe uses. */
  readonly powerShell?: SandboxPowerShell;
  /** The workspace as configured; the runner binds its real path read-write. */
  readonly workspace: string;
  /** The home directory; a workspace that is it (or above it) is refused. */
  readonly home: string | undefined;
  readonly network: boolean;
  /** The allowlisted environment from command-environment. */
  readonly environment: Readonly<Record<string, string>>;
  /** Values replaced by `[redacted]` in the output: the harness's own secrets. */
  readonly secrets?: readonly string[];
  /** /proc masks and seccomp program, decided once at start-up; else decided here for this host. */
  readonly hardening?: SandboxHardening;
  /**
   * Absolute real paths of the files the harness writes itself (audit log, recording) and of the
   * agent's own install (directories too), decided once at start; those inside the workspace are
   * bound read-only, so no command can swap or change them.
   */
  readonly harnessFiles?: readonly string[];
  /**
   * What the host loads or runs later inside the workspace, asked for as each command is planned
   * (the caller works the list out once, at the first ask: it follows every link on PATH).
   */
  readonly hostFiles?: () => SandboxHostFiles;
  /**
   * Real paths inside the workspace of what the host loads or runs later, whether they exist or
   * not (a dangling `~/.gitconfig` link into the workspace leads to one that does not): each
   * command finds them bound read-only or kept from being created (absent-placeholders.ts), and
   * is told of any that is not as it was before it.
   */
  readonly keepUnchanged?: readonly string[];
  /** The older name of `keepUnchanged`, when only those not made yet were passed: joined to it. */
  readonly keepAbsent?: readonly string[];
  /**
   * The folder of the ledger of placeholders that every run in this workspace shares
   * (placeholder-ledger.ts), in the state directory; absent, this runner's own, in memory.
   */
  readonly placeholderLedger?: string;
  /**
   * Where a file tool's write of a file loaded later asks (chapter 4): which those are
   * (core/policy/loaded-later-files.ts). Each command then finds those that exist read-only and
   * is told of any it created (loaded-later-binds.ts); absent, commands may write them.
   */
  readonly loadedLater?: LoadedLaterClassifier;
  /**
   * Which commands `loadedLater` holds back: every one (chapter 4, the default), or only one no
   * person approved at the prompt (`CommandOptions.unapproved`: the daily profile, where a rule
   * or an earlier "for this run" lets a command run unread).
   */
  readonly loadedLaterFor?: "every-command" | "unapproved-commands";
  /** Real paths outside the workspace hidden from commands (the harness's state directory). */
  readonly hiddenPaths?: readonly string[];
  /**
   * The host directory bound writable at SANDBOX_CACHE (cache-directory.ts prepared it); absent,
   * the cache lives on the sandbox's private /tmp and lasts one command.
   */
  readonly cacheDirectory?: string;
  /** Credentials the person chose to leave readable (`--sandbox-unmask`); others are masked. */
  readonly unmasked?: readonly string[];
  /** Resource limits, set by prlimit inside the sandbox; both absent: no limits (tests). */
  readonly limits?: { readonly prlimitPath: string; readonly values: ResourceLimits };
  /**
   * One cgroup per command for the process and memory limits, which then bind the command's
   * processes together (and bind root); absent, or unavailable here: the rlimits alone.
   */
  readonly cgroups?: SandboxCgroups;
}

/**
 * Runs each command in bubblewrap: the host filesystem read-only except the workspace (its `.git`
 * and nested repositories' `.git` read-only again), private /tmp and /run, no network unless
 * asked, no capabilities, only the allowlisted environment. The command's exit code passes
 * through; a sandbox that could not be set up throws SandboxSetupError.
 */
export class BubblewrapRunner implements CommandRunner {
  readonly shellName: string;
  readonly #options: BubblewrapRunnerOptions;
  readonly #hardening: SandboxHardening;
  /** Made at the first command that has a credential file to mask, then reused. */
  #maskSource: string | undefined;
  readonly #placeholders: PlaceholderLedger;

  /** Throws SandboxSetupError on an architecture without a seccomp table: no unfiltered runs. */
  constructor(options: BubblewrapRunnerOptions) {
    const hardening =
      options.hardening ??
      sandboxHardening(process.arch, liveHostPaths, { network: options.network });
    if (hardening === undefined) throw new SandboxSetupError(noSeccompTable(process.arch));
    this.#options = options;
    this.#hardening = hardening;
    this.#placeholders =
      options.placeholderLedger === undefined
        ? new MemoryPlaceholderLedger()
        : new DirectoryPlaceholderLedger(options.placeholderLedger);
    this.shellName =
      options.powerShell === undefined ? options.shell.kind : powerShellDisplayName("pwsh");
  }

  /** What a command inside receives (`--clearenv`, then these), by name. */
  get environmentNames(): readonly string[] {
    return environmentNamesOf(this.#innerEnvironment());
  }

  /** What the approval prompt and the audit line say about where a command runs. */
  label(): string {
    const network = this.#options.network ? "network on" : "network off";
    return `sandbox: bwrap (${network}, writable: ${realWorkspace(this.#options.workspace)})`;
  }

  async run(command: string, cwd: string, options: CommandOptions): Promise<CommandResult> {
    const plan = this.#plan(this.#innerCommand(command), cwd, this.#loadedLaterFor(options));
    return this.#runPlanned(plan, options);
  }

  /**
   * One program with its arguments, no shell in between (P04's `run_command`). `argv[0]` must be
   * an absolute host path, resolved by the caller on the trusted PATH; the root is read-only here.
   */
  async runArgv(
    argv: readonly string[],
    cwd: string,
    options: CommandOptions,
  ): Promise<CommandResult> {
    const [program] = argv;
    if (program === undefined || !path.isAbsolute(program)) {
      throw new SandboxSetupError("runArgv needs an absolute program path");
    }
    return this.#runPlanned(this.#plan([...argv], cwd, this.#loadedLaterFor(options)), options);
  }

  /** The files loaded later this command may not write, when it may not write them. */
  #loadedLaterFor(options: Pick<CommandOptions, "unapproved">): LoadedLaterClassifier | undefined {
    const { loadedLater, loadedLaterFor } = this.#options;
    if (loadedLaterFor === "unapproved-commands" && options.unapproved !== true) return undefined;
    return loadedLater;
  }

  /**
   * Holds the protected names not made yet with placeholders for the command's length, then
   * lets them go and says what changed that should not have.
   */
  async #runPlanned(plan: CommandPlan, options: CommandOptions): Promise<CommandResult> {
    const result = withNotes(
      await this.#runHolding(plan, options),
      gitMadeDuringCommand(plan.workspace, plan.gitMetadata),
    );
    const { loadedLaterClassifier, installedPrograms } = plan;
    if (loadedLaterClassifier === undefined) return result;
    return withNotes(result, [
      ...madeDuringCommand(plan.workspace, loadedLaterClassifier, plan.loadedLater),
      ...(installedPrograms === undefined
        ? []
        : installedProgramsMade(plan.workspace, installedPrograms)),
    ]);
  }

  async #runHolding(plan: CommandPlan, options: CommandOptions): Promise<CommandResult> {
    if (plan.placeholders.length === 0 && plan.watched.length === 0) {
      return this.#runInner(plan.args, options);
    }
    const ledger = this.#placeholders;
    let before: Identities = new Map();
    const held = holdPlaceholders(ledger, plan.placeholders, (entries) => {
      before = identitiesOf(plan.watched, entries);
    });
    let result: CommandResult;
    let after: Identities = new Map();
    try {
      result = await this.#runInner(plan.args, options);
    } finally {
      // Also when the command could not start: the placeholders are let go either way.
      plan.afterwards.push(
        ...releasePlaceholders(ledger, held, (entries) => {
          after = identitiesOf(plan.watched, entries);
        }),
      );
    }
    return withNotes(result, [...plan.afterwards, ...changedNotes(before, after)]);
  }

  async #runInner(args: string[], options: CommandOptions): Promise<CommandResult> {
    // What the command sees is set inside (`--setenv`); nothing of it runs bwrap or the entry.
    const { bwrapPath } = this.#options;
    const filter = this.#hardening.seccompFilter;
    const secrets = [...(options.secrets ?? []), ...(this.#options.secrets ?? [])];
    const withSecrets = secrets.length === 0 ? options : { ...options, secrets };
    const limits = this.#options.limits?.values;
    const { result, evidence } = await runInCgroup(
      limits === undefined ? undefined : this.#options.cgroups,
      limits ?? NO_LIMITS,
      this.#options.shell.executable,
      (entry) => runSandboxedProcess(bwrapPath, args, withSecrets, filter, entry),
    );
    if (limits === undefined && this.#options.network) return result;
    const context = {
      network: this.#options.network,
      limits: limits ?? NO_LIMITS,
      ...(evidence === undefined ? {} : { cgroup: evidence }),
    };
    return withNotes(result, failureNotes(result, context));
  }

  /**
   * The full bwrap argv for one command; paths are resolved now, as the workspace is now. A
   * placeholder it binds is made only when the command runs.
   */
  argsFor(
    command: string,
    cwd: string,
    options: Pick<CommandOptions, "unapproved"> = {},
  ): string[] {
    return this.#plan(this.#innerCommand(command), cwd, this.#loadedLaterFor(options)).args;
  }

  /**
   * Throws, in the builder's own words, what `argsFor` would throw for every command whatever the
   * workspace holds: a workspace that is `/`, the home directory or above it, or that overlaps a
   * hidden path or the cache. It skips the reads each command makes again (the credentials to
   * mask, the git metadata to keep read-only), so a run can decide before its first request
   * whether commands will have a sandbox at all, without scanning the repository first.
   */
  checkWorkspace(): void {
    const workspace = realWorkspace(this.#options.workspace);
    bubblewrapArgs({
      ...this.#argsCommonTo(workspace, this.#innerCommand("true")),
      cwd: workspace,
      readOnlyPaths: [],
      hiddenPaths: this.#options.hiddenPaths ?? [],
      // Nothing checked depends on them: the /proc masks are looked up at the probe.
      procMasks: [],
    });
  }

  #plan(inner: string[], cwd: string, loadedLater: LoadedLaterClassifier | undefined): CommandPlan {
    const workspace = realWorkspace(this.#options.workspace);
    const realCwd = realDirectory(cwd, "Working directory");
    const common = this.#argsCommonTo(workspace, inner);
    const masks = credentialMasks(common.home, this.#options.unmasked ?? [], workspace);
    const metadata = gitMetadata(workspace);
    // Read again for each command, like the scan: a command may have made a repository.
    const delegated = gitDelegatedBinds(workspace, metadata);
    const hostFiles = this.#options.hostFiles?.() ?? NO_HOST_FILES;
    const watched = [
      ...new Set([
        ...(this.#options.keepUnchanged ?? []),
        ...(this.#options.keepAbsent ?? []),
        ...hostFiles.keepUnchanged,
        ...delegated.absentAtRoot,
      ]),
    ];
    const absent = absentCoverage(workspace, watched);
    // Held only while the command runs (#runHolding): the scan above never sees it.
    const rootGit = rootGitNamesToHold(workspace);
    const { cacheDirectory } = this.#options;
    const later = loadedLater === undefined ? [] : loadedLaterBefore(workspace, loadedLater);
    const args = bubblewrapArgs({
      ...common,
      ...(cacheDirectory === undefined
        ? {}
        : {
            keptStores: keptStores(cacheDirectory),
            perCommandInCache: PER_COMMAND_IN_CACHE.map((name) => `${SANDBOX_CACHE}/${name}`),
          }),
      procMasks: this.#hardening.procMasks,
      cwd: realCwd,
      readOnlyPaths: [
        ...new Set([
          ...metadata,
          ...delegated.binds,
          ...harnessFilesIn(workspace, [
            ...(this.#options.harnessFiles ?? []),
            ...hostFiles.readOnly,
          ]),
          ...absent.readOnly,
          ...absent.placeholders,
          ...rootGit,
          ...loadedLaterBinds(later),
        ]),
      ],
      hiddenPaths: [...(this.#options.hiddenPaths ?? []), ...masks.directories],
      maskedFiles: masks.files,
      ...(masks.files.length === 0 ? {} : { maskSource: this.#emptyFile() }),
    });
    return {
      args,
      workspace,
      loadedLater: loadedLaterSnapshot(later),
      ...(loadedLater === undefined
        ? {}
        : {
            loadedLaterClassifier: loadedLater,
            installedPrograms: installedProgramsBefore(workspace),
          }),
      // An empty file already there may be another run's placeholder: held too.
      placeholders: [
        ...new Set([
          ...absent.placeholders,
          ...emptyAtRoot(workspace, absent.readOnly),
          ...rootGit,
        ]),
      ],
      watched: [...watched, ...delegated.binds, ...rootGit].filter((p) =>
        isWithinRoot(workspace, p),
      ),
      gitMetadata: metadata,
      afterwards: [],
    };
  }

  /** What every argv of this runner shares, whatever the workspace holds. */
  #argsCommonTo(workspace: string, inner: string[]) {
    const home = this.#options.home === undefined ? undefined : realOrSelf(this.#options.home);
    const { cacheDirectory, limits } = this.#options;
    return {
      workspace,
      ...(cacheDirectory === undefined ? {} : { cacheDirectory, cacheMount: SANDBOX_CACHE }),
      home,
      network: this.#options.network,
      environment: this.#innerEnvironment(),
      statusFd: STATUS_FD,
      seccompFd: SECCOMP_FD,
      command:
        limits === undefined
          ? inner
          : [...prlimitArgs(limits.prlimitPath, limits.values), ...inner],
    };
  }

  #emptyFile(): string {
    this.#maskSource ??= makeEmptyFile();
    return this.#maskSource;
  }

  #innerCommand(command: string): string[] {
    const { powerShell, shell } = this.#options;
    if (powerShell === undefined) return [shell.executable, ...posixShellArgs(shell.kind, command)];
    return [powerShell.executable, ...powerShellCommandArgs(powerShell.entryPoint, command)];
  }

  #innerEnvironment(): Readonly<Record<string, string>> {
    const { powerShell, network } = this.#options;
    const environment = { ...this.#options.environment, ...sandboxEnvironment(network) };
    if (powerShell === undefined) return environment;
    return { ...powerShellEnvironment(environment), ...SANDBOX_POWERSHELL_DIRECTORIES };
  }
}

/** One command's argv and what must be done around it for the protected names not made yet. */
interface CommandPlan {
  readonly args: string[];
  readonly workspace: string;
  /** The loaded-later files and folders there before the command, bound read-only. */
  readonly loadedLater: LoadedLaterBefore;
  /** Which files are loaded later, when this command may not write them. */
  readonly loadedLaterClassifier?: LoadedLaterClassifier;
  /** With it: the programs of installed code before the command, which it may write. */
  readonly installedPrograms?: InstalledPrograms;
  readonly placeholders: readonly string[];
  /** The protected paths inside the workspace, compared before and after the command. */
  readonly watched: readonly string[];
  /** The git metadata found in the workspace before the command (gitMetadata). */
  readonly gitMetadata: readonly string[];
  /** Notes for the result, gathered after the command. */
  readonly afterwards: string[];
}

const NO_LIMITS: ResourceLimits = Object.freeze({
  memory: undefined,
  processes: undefined,
  "file-size": undefined,
  "cpu-time": undefined,
  "open-files": undefined,
});

/**
 * The kept stores that are plain folders of the cache, made if missing. A command can write the
 * cache, so one it turned into a link (bwrap would bind whatever the link names writable) or
 * anything but a folder is left out: that tool's downloads then last one command.
 */
function keptStores(cacheDirectory: string): { source: string; at: string }[] {
  const stores: { source: string; at: string }[] = [];
  for (const { kept, at } of KEPT_STORES) {
    let current = cacheDirectory;
    let usable = true;
    for (const name of kept.split("/")) {
      current = path.join(current, name);
      try {
        mkdirSync(current, { mode: 0o700 });
      } catch {
        // there already, or not makeable: the lstat decides
      }
      const stats = lstatSync(current, { throwIfNoEntry: false });
      if (stats?.isDirectory() !== true) {
        usable = false;
        break;
      }
    }
    if (usable) stores.push({ source: current, at });
  }
  return stores;
}

function realWorkspace(workspace: string): string {
  return realDirectory(workspace, "Workspace");
}

function realDirectory(directory: string, what: string): string {
  try {
    const real = realpathSync.native(directory);
    if (lstatSync(real).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw new SandboxSetupError(`${what} does not exist or is not a directory: ${directory}`);
}

function realOrSelf(candidate: string): string {
  try {
    return realpathSync.native(candidate);
  } catch {
    return path.resolve(candidate);
  }
}

/**
 * The harness's own files and directories (its audit log and recording, its `.agent` directory,
 * the agent's install: dist/, node_modules, …) that lie inside the workspace and are still there
 * as regular files or directories (a bind would follow a link; a missing one has nothing left to
 * protect: the harness keeps writing to the descriptor it opened at start). A workspace inside one
 * of them (the agent's own dist/) is bound read-only whole.
 */
function harnessFilesIn(workspace: string, files: readonly string[]): string[] {
  if (files.some((file) => isWithinRoot(file, workspace))) return [workspace];
  return files.filter((file) => {
    if (!isWithinRoot(workspace, file)) return false;
    try {
      const stats = lstatSync(file);
      return stats.isFile() || stats.isDirectory();
    } catch {
      return false;
    }
  });
}

/** How far below the workspace nested repositories (`vendor/lib/.git`) are looked for. */
export const NESTED_GIT_DEPTH = 4;
/** At most this many nested git directories are re-bound read-only; more refuses the command. */
export const NESTED_GIT_LIMIT = 64;
/**
 * At most this many directories are listed per command, so a huge tree cannot stall each run
 * (about 0.1 s at the limit). The scan is per command, not once per run, on purpose: a command
 * may `git init` or `git clone` a nested repository, and the next command must already find that
 * `.git` read-only, or it could plant a hook that runs on the host at the person's next git
 * command there. Both limits fail closed: a command could otherwise create decoy directories or
 * repositories that use the budget up and leave a real repository's hooks writable.
 */
export const NESTED_GIT_DIRECTORY_BUDGET = 8192;
const UNSCANNED_DIRECTORIES = new Set(["node_modules"]);

/**
 * What to bind read-only again on top of the writable workspace: its `.git` (a directory, or a
 * worktree's `.git` file), then every nested `.git` found within NESTED_GIT_DEPTH levels, and git
 * metadata not named `.git`: a directory git takes for a git dir by its layout (a bare repository,
 * a separate git dir; see git-directories.ts), the target of a `gitdir:` file and a git dir's
 * `commondir`, wherever they lie inside the workspace. A workspace that is itself laid out as a
 * git dir is refused: binding it read-only would leave nothing writable.
 *
 * A symlinked top-level `.git` is refused: the link lives in the writable workspace and a mount
 * cannot cover a link (it follows it), so `rm .git && mkdir .git` would plant a fresh one that
 * the host's git obeys. Nested ones are best effort either way (a command can rename the
 * directory that holds one), so a symlinked nested `.git` only has its target bound.
 */
function gitMetadata(workspace: string): string[] {
  // An empty HEAD is no git dir's (git reads the ref in it first): one beside a project's own
  // objects/ and refs/ does not refuse the command.
  const entries = listDirectory(workspace).filter((entry) => !isEmptyHead(workspace, entry));
  if (isGitDirectoryLayout(entries)) {
    throw new SandboxContentError(
      `The sandbox cannot keep the git metadata in ${workspace} read-only: the workspace itself ` +
        `is laid out as a git directory (HEAD, objects, refs); run the agent in a checkout, or ` +
        `run with --sandbox off`,
    );
  }
  const candidate = path.join(workspace, ".git");
  let top: Stats;
  try {
    top = lstatSync(candidate);
  } catch {
    return nestedGitMetadata(workspace);
  }
  if (top.isSymbolicLink()) {
    throw new SandboxContentError(
      `The sandbox cannot keep ${candidate} read-only: it is a symbolic link, which a command ` +
        `could replace with a .git of its own; make it a directory (or a worktree's .git file), ` +
        `or run with --sandbox off`,
    );
  }
  const linked = top.isFile()
    ? insideOnly(workspace, pointerFileTarget(candidate, "gitdir: "))
    : [];
  return [candidate, ...linked, ...nestedGitMetadata(workspace)];
}

/**
 * A note for each repository a command made inside the workspace (a nested `git init` or `git
 * clone`): the next command finds it read-only, but this one could already have written its hooks
 * and config, which the person's next git command there runs on the host. The workspace's own top
 * `.git` is held for the command (root-git-holds.ts); a scan that now fails (the top laid out as a
 * bare repository, too many repositories) refuses the next command, and is named here too.
 */
function gitMadeDuringCommand(workspace: string, before: readonly string[]): string[] {
  let after: string[];
  try {
    after = gitMetadata(workspace);
  } catch (error) {
    if (!(error instanceof SandboxContentError)) throw error;
    // The workspace laid out as a git dir, or too many repositories to look through: the next
    // command is refused, but this one may already have planted what git runs.
    return [
      `warning: after this command: ${error.message}. Git may run hooks or config this command ` +
        `put there at your next git command in ${workspace}: check it before then`,
    ];
  }
  const known = new Set(before);
  return after
    .filter((found) => !known.has(found) && !isEmptyPlaceholderShape(found))
    .map(
      (found) =>
        `warning: ${found} was made during this command: git runs the hooks and programs its ` +
        `config names at your next git command there, outside the sandbox: check it before then`,
    );
}

function isEmptyHead(workspace: string, entry: Dirent): boolean {
  if (entry.name !== "HEAD" || !entry.isFile()) return false;
  try {
    return lstatSync(path.join(workspace, entry.name)).size === 0;
  } catch {
    return false;
  }
}

/**
 * An empty `.git` holds no hook or config for git to run: another run's placeholder (another run
 * in this workspace holds one while its command runs), or a folder nothing was put in yet, which
 * the next command finds read-only.
 */
function isEmptyPlaceholderShape(found: string): boolean {
  try {
    const stats = lstatSync(found, { throwIfNoEntry: false });
    return stats !== undefined && hasPlaceholderShape(found, stats);
  } catch {
    return false; // changed since the scan: named, as anything the scan found
  }
}

function isGitDirectoryLayout(entries: readonly Dirent[]): boolean {
  const names = new Set(entries.map((entry) => entry.name));
  return hasGitDirectoryLayout((entry) => names.has(entry));
}

/** An existing directory strictly inside the workspace, by its real path; else nothing. */
function insideOnly(workspace: string, candidate: string | undefined): string[] {
  if (candidate === undefined) return [];
  try {
    const real = realpathSync.native(candidate);
    const inside = isWithinRoot(workspace, real) && !isWithinRoot(real, workspace);
    return inside && lstatSync(real).isDirectory() ? [real] : [];
  } catch {
    return [];
  }
}

/** Breadth first, so the shallowest repositories are the ones kept when a limit is reached. */
function nestedGitMetadata(workspace: string): string[] {
  const found: string[] = [];
  let level = [workspace];
  let budget = NESTED_GIT_DIRECTORY_BUDGET;
  for (let depth = 0; depth <= NESTED_GIT_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const directory of level) {
      if (budget === 0)
        throw scanLimit(`more than ${String(NESTED_GIT_DIRECTORY_BUDGET)} directories`);
      budget -= 1;
      const entries = listDirectory(directory);
      if (depth > 0 && isGitDirectoryLayout(entries)) {
        // A bare repository or separate git dir: all of it, and the common dir it shares.
        const common = pointerFileTarget(path.join(directory, "commondir"), "");
        found.push(directory, ...insideOnly(workspace, common));
        if (found.length > NESTED_GIT_LIMIT) throw tooManyRepositories();
        continue;
      }
      for (const entry of entries) {
        const absolute = path.join(directory, entry.name);
        if (isGitDirectoryName(entry.name)) {
          // The workspace's own `.git` is gitMetadata's; only nested ones are collected here.
          const kept = depth === 0 ? undefined : nestedGitPath(workspace, absolute, entry);
          if (kept !== undefined) found.push(kept);
          // A `gitdir:` file: the directory it names is git metadata too, wherever it lies.
          if (depth > 0 && entry.isFile()) {
            found.push(...insideOnly(workspace, pointerFileTarget(absolute, "gitdir: ")));
          }
          if (found.length > NESTED_GIT_LIMIT) throw tooManyRepositories();
        } else if (entry.isDirectory() && !UNSCANNED_DIRECTORIES.has(entry.name)) {
          // Dirent types do not follow links: a symlinked directory is never entered.
          next.push(absolute);
        }
      }
    }
    level = next;
  }
  return found;
}

function tooManyRepositories(): SandboxContentError {
  return scanLimit(`more than ${String(NESTED_GIT_LIMIT)} nested git directories`);
}

function scanLimit(what: string): SandboxContentError {
  return new SandboxContentError(
    `The sandbox refuses to run this command: the workspace holds ${what} within ` +
      `${String(NESTED_GIT_DEPTH)} levels, too many to keep every repository's git metadata ` +
      `read-only; remove what a command created, run the agent in a smaller directory, or run ` +
      `with --sandbox off`,
  );
}

function listDirectory(directory: string): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch (error) {
    // A directory that vanished holds nothing a command could use. One it cannot read might hide
    // a repository a command made unreadable (`chmod 000`) to have it skipped: refuse instead.
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw new SandboxContentError(
      `The sandbox refuses to run this command: it cannot read ${directory} (${code ?? "error"}) ` +
        `to keep any repository inside it read-only; make it readable, or run with --sandbox off`,
    );
  }
}

/** A nested `.git` directory or file as it is, or a symlinked one's target inside the workspace. */
function nestedGitPath(workspace: string, absolute: string, entry: Dirent): string | undefined {
  try {
    // lstat too: a listable directory may still not be searchable, and bwrap could not bind it.
    if (entry.isDirectory() || entry.isFile()) {
      lstatSync(absolute);
      return absolute;
    }
    if (!entry.isSymbolicLink()) return undefined;
    const real = realpathSync.native(absolute);
    // Strictly inside: a `.git` linking to the workspace itself would re-bind all of it read-only.
    return isWithinRoot(workspace, real) && !isWithinRoot(real, workspace) ? real : undefined;
  } catch {
    return undefined;
  }
}
