/**
 * Chapter profiles: what each stage of the tutorial's harness builds, as data. The composition root
 * reads these fields; nothing asks which profile it holds.
 */

/**
 * What a profile is built from, as the tutorial's chapter 3 names them: the agent loop, the
 * PowerShell (shell) command tool, the tool registry, the four file tools and the permission
 * policy; then `fetch_url`, which only P04 declares. The composition root asks `has(...)`.
 */
export const CAPABILITIES = Object.freeze([
  "loop",
  "powershell",
  "tool_registry",
  "files",
  "policy",
  "fetch_url",
] as const);
export type Capability = (typeof CAPABILITIES)[number];

/**
 * A `ReadonlySet` that is read-only at runtime too: the Set is private and only the query methods
 * are exposed, so `capabilities.has("policy")` can be trusted by the composition root.
 */
export class CapabilitySet implements ReadonlySet<Capability> {
  readonly #capabilities: ReadonlySet<Capability>;

  constructor(capabilities: Iterable<Capability>) {
    const set = new Set<Capability>();
    for (const capability of capabilities) {
      if (!(CAPABILITIES as readonly string[]).includes(capability)) {
        throw new RangeError(`Unknown capability: ${capability}`);
      }
      set.add(capability);
    }
    this.#capabilities = set;
    Object.freeze(this);
  }

  has(capability: Capability): boolean {
    return this.#capabilities.has(capability);
  }

  toArray(): Capability[] {
    return CAPABILITIES.filter((capability) => this.#capabilities.has(capability));
  }

  get size(): number {
    return this.#capabilities.size;
  }

  /** In canonical order, like `toArray`; iterating a copy, so nothing can be added through it. */
  [Symbol.iterator](): SetIterator<Capability> {
    return this.values();
  }

  values(): SetIterator<Capability> {
    return new Set(this.toArray()).values();
  }

  keys(): SetIterator<Capability> {
    return this.values();
  }

  entries(): SetIterator<[Capability, Capability]> {
    return new Set(this.toArray()).entries();
  }

  forEach(
    callback: (value: Capability, key: Capability, set: ReadonlySet<Capability>) => void,
    thisArg?: unknown,
  ): void {
    for (const capability of this.toArray()) {
      callback.call(thisArg, capability, capability, this);
    }
  }
}

/**
 * How the model runs a command: `shell`, a command line for the person to approve, or
 * `run_command`, one program and its arguments from the workspace's allowlist.
 */
export type CommandTool = "shell" | "run_command";
/** `required`: commands run in the sandbox or not at all, whatever `--sandbox` says. */
export type SandboxNeed = "optional" | "required";
/**
 * `refused`: the profile writes files without asking, so it will not work in `/`, the home
 * directory or a directory above it (where `~/.bashrc` or `~/.ssh/authorized_keys` would be fair
 * game). `allowed`: every write there is asked, or the tutorial keeps its chapter as it is.
 */
export type HomeWorkspace = "allowed" | "refused";
/**
 * What the profile does with the tools of the person's MCP servers (docs/mcp.md). `none`: they are
 * never started nor listed (the tutorial's tool sets stay as they are). `allowlist`: listed; a call
 * is denied unless the settings file's allowlist names the server and the tool, and then asked
 * with a digest-bound grant. `ask`: listed; every call asks the person at the terminal (a
 * read-only one too: its arguments leave this machine), where the person's own rules and the run's
 * grants answer as for any other ask, and a personal deny wins.
 */
export type McpToolsMode = "none" | "allowlist" | "ask";
/** `terminal`: the person answers [y/N] now. `grants`: an answer is a recorded grant, or the run waits. */
export type ApprovalMode = "terminal" | "grants";

/**
 * How the person may answer a `terminal` ask: `once`, chapter 3's [y/N]; `once-or-run`, [y/N/a],
 * where `a` allows exactly this action again for the rest of this run (core/policy/run-grants.ts).
 */
export type TerminalAnswers = "once" | "once-or-run";

/** `grep`: the workspace search tool, a read that needs no question; `none`: the shell searches. */
export type SearchTool = "none" | "grep";
/**
 * What a sandboxed command may do to the files the host loads or runs later (`.envrc`,
 * `.vscode/`, `AGENTS.md`, …; core/policy/loaded-later-files.ts). `writable`: the tutorial's
 * chapters, where a person approves every command and every write. `read-only`: chapter 4, for
 * every command. `read-only-unless-approved`: read-only for a command no person approved at the
 * prompt (a rule of theirs, or an earlier "for this run", let it run), whose words nobody read
 * this time: a rule `git grep` also lets `git grep --open-files-in-pager=sh` run.
 */
export type LoadedLaterToCommands = "writable" | "read-only" | "read-only-unless-approved";

export interface ChapterProfile {
  readonly id: "P01" | "P02" | "P03" | "P04" | "daily";
  /**
   * The tutorial chapter whose tool path the profile builds on; the daily profile is chapter 3's
   * path and promises with more parts, so a journal that knows only chapters resumes it as
   * chapter 3 (which asks more, never less).
   */
  readonly chapter: 1 | 2 | 3 | 4;
  /** `--profile NAME` for a profile beyond the tutorial's chapters; absent for those. */
  readonly name?: string;
  readonly title: string;
  readonly capabilities: CapabilitySet;
  /** `shell` exactly when the profile has `powershell`; P04's `run_command` is its own field. */
  readonly commandTool: CommandTool;
  readonly sandbox: SandboxNeed;
  /**
   * With the `policy` capability: `terminal` is chapter 3's policy (the workspace boundary, the
   * file-write rule, the person's [y/N], an audit line per decision); `grants` is the second
   * seed's default deny, whose asks are answered by recorded one-time grants.
   */
  readonly approvals: ApprovalMode;
  readonly homeWorkspace: HomeWorkspace;
  /**
   * The model reads, after a failed call's own error text, whether it executed and, for a denial,
   * its source and scope (seed 004). Off for the tutorial's chapters, whose messages are fixed.
   */
  readonly outcomeNotes: boolean;
  readonly answers: TerminalAnswers;
  readonly search: SearchTool;
  /** What a sandboxed command may do to the files the host loads or runs later. */
  readonly loadedLaterToCommands: LoadedLaterToCommands;
  /**
   * Whether the person's own rules from their settings file (allow / ask / deny by tool and argv
   * prefix or path glob) join the policy. Never read from the workspace.
   */
  readonly personalRules: boolean;
  /** Whether the person's MCP servers' tools are offered, and how their calls are decided. */
  readonly mcpTools: McpToolsMode;
  /** The system prompt's lines; `{shell}` stands for the shell's name. */
  readonly systemPrompt: readonly string[];
}

function profile(
  fields: Omit<ChapterProfile, "capabilities"> & {
    readonly capabilities: readonly Capability[];
  },
): ChapterProfile {
  const has = (capability: Capability): boolean => fields.capabilities.includes(capability);
  if (has("powershell") !== (fields.commandTool === "shell")) {
    throw new RangeError(`${fields.id}: the shell tool is the powershell capability`);
  }
  if (fields.mcpTools !== "none" && !has("policy")) {
    throw new RangeError(`${fields.id}: an external tool is decided by a policy`);
  }
  if (fields.mcpTools === "ask" && fields.approvals !== "terminal") {
    throw new RangeError(`${fields.id}: an external tool is asked at the terminal`);
  }
  if (fields.approvals === "grants" && !has("policy")) {
    throw new RangeError(`${fields.id}: grants are answers to a policy's asks`);
  }
  if (
    (fields.answers === "once-or-run" || fields.personalRules) &&
    (!has("policy") || fields.approvals !== "terminal")
  ) {
    throw new RangeError(`${fields.id}: run grants and personal rules answer chapter 3's asks`);
  }
  return Object.freeze({
    ...fields,
    capabilities: new CapabilitySet(fields.capabilities),
    systemPrompt: Object.freeze([...fields.systemPrompt]),
  });
}

const OPENING = "You are a careful coding agent working in one workspace directory.";
const CLOSING = "When the task is done, reply with a short summary and no tool call.";

function shellPrompt(tools: string): readonly string[] {
  return [
    OPENING,
    // No absolute path here: the prompt stays the same on every machine, so recordings replay.
    "The shell ({shell}) starts in the workspace.",
    `Use ${tools}. File paths are relative to the workspace; never use absolute paths or "..".`,
    "Every shell command is shown to the person for approval first; a denied call returns an",
    "error result: do not retry the same call, explain or choose another way.",
    CLOSING,
  ];
}

const CHAPTER_TUTORIAL = {
  commandTool: "shell",
  sandbox: "optional",
  approvals: "terminal",
  homeWorkspace: "allowed",
  outcomeNotes: false,
  answers: "once",
  personalRules: false,
  search: "none",
  loadedLaterToCommands: "writable",
  mcpTools: "none",
} as const;

export const P01 = profile({
  id: "P01",
  chapter: 1,
  title: "Shell loop",
  ...CHAPTER_TUTORIAL,
  capabilities: ["loop", "powershell", "tool_registry"],
  systemPrompt: shellPrompt("the shell tool"),
});
export const P02 = profile({
  id: "P02",
  chapter: 2,
  title: "File tools",
  ...CHAPTER_TUTORIAL,
  capabilities: ["loop", "powershell", "tool_registry", "files"],
  systemPrompt: shellPrompt(
    "the shell tool and the file tools (read_file, write_file, edit_file, glob)",
  ),
});
export const P03 = profile({
  id: "P03",
  chapter: 3,
  title: "Permissions before side effects",
  ...CHAPTER_TUTORIAL,
  capabilities: ["loop", "powershell", "tool_registry", "files", "policy"],
  systemPrompt: shellPrompt(
    "the shell tool and the file tools (read_file, write_file, edit_file, glob)",
  ),
});

/**
 * The second seed (permissions and security) past chapter 3: default deny, argv allowlists, and
 * approvals that wait as digest-bound one-time grants. Its own profile, because it contradicts
 * chapter 3 (which allows by default) where the tutorial fixes chapter 3's behaviour. `fetch_url`
 * is declared only to be denied: a tool the model sees is not a tool it may use.
 */
export const P04 = profile({
  id: "P04",
  chapter: 4,
  title: "Approvals that wait",
  commandTool: "run_command",
  sandbox: "required",
  approvals: "grants",
  homeWorkspace: "refused",
  outcomeNotes: true,
  answers: "once",
  personalRules: false,
  search: "none",
  loadedLaterToCommands: "read-only",
  mcpTools: "allowlist",
  capabilities: ["loop", "tool_registry", "files", "policy", "fetch_url"],
  systemPrompt: [
    OPENING,
    "Use run_command (one program and its arguments, no shell) and the file tools (read_file,",
    'write_file, edit_file, glob). File paths are relative to the workspace; never use absolute paths or "..".',
    "Only the exact commands on the workspace's allowlist can run, each after a person approves it,",
    "in a sandbox without network; fetch_url is always refused. A denied call returns an error",
    "result: do not retry the same call, explain or choose another way.",
    CLOSING,
  ],
});

/**
 * Daily work in one's own repository: chapter 3's tool path and promises (every shell command and
 * every write asks, the workspace boundary and protected paths hold), plus the `grep` tool (a read,
 * which needs no question), `[y/N/a]`, the person's own rules from their settings file, and the
 * tools of their MCP servers, each call asked.
 */
export const DAILY = profile({
  id: "daily",
  chapter: 3,
  name: "daily",
  title: "Daily work",
  ...CHAPTER_TUTORIAL,
  answers: "once-or-run",
  personalRules: true,
  search: "grep",
  loadedLaterToCommands: "read-only-unless-approved",
  mcpTools: "ask",
  capabilities: ["loop", "powershell", "tool_registry", "files", "policy"],
  systemPrompt: [
    OPENING,
    "The shell ({shell}) starts in the workspace.",
    "Use the grep tool to search code and the file tools (read_file, write_file, edit_file, glob)",
    'to read and change files, the shell tool for the rest. File paths are relative to the workspace; never use absolute paths or "..".',
    "Every shell command and every file change is shown to the person for approval first, unless",
    "they allowed it before; a denied call returns an error result: do not retry the same call,",
    "explain or choose another way.",
    CLOSING,
  ],
});

/** How a person names the profile: `chapter 3`, `profile daily`. */
export function profileLabel(profile: ChapterProfile): string {
  return profile.name === undefined
    ? `chapter ${String(profile.chapter)}`
    : `profile ${profile.name}`;
}

/** The profiles `--profile NAME` names. */
export const NAMED_PROFILES = Object.freeze([DAILY] as const);

export function profileNamed(name: string): ChapterProfile | undefined {
  return NAMED_PROFILES.find((candidate) => candidate.name === name);
}

/** The tutorial's chapters, in order. */
export const PROFILES = Object.freeze([P01, P02, P03] as const);
/** Every profile `--chapter` can name: the tutorial's, then the seed's P04. */
export const ALL_PROFILES = Object.freeze([P01, P02, P03, P04] as const);
/** The tutorial's last chapter, and the default. */
export const LATEST_CHAPTER = 3;

export function profileForChapter(chapter: number): ChapterProfile {
  const found = ALL_PROFILES.find((candidate) => candidate.chapter === chapter);
  if (found === undefined) {
    throw new RangeError(`Unknown chapter: ${chapter}. Choose 1, 2, 3 or 4.`);
  }
  return found;
}

/** True only for the canonical frozen object, so a look-alike with extra capabilities is refused. */
export function isCanonicalProfile(candidate: unknown): candidate is ChapterProfile {
  return [...ALL_PROFILES, ...NAMED_PROFILES].some((known) => known === candidate);
}

/** Whether the profile keeps an audit (and so may be given `--audit-log`). */
export function keepsAudit(profile: ChapterProfile): boolean {
  return profile.capabilities.has("policy");
}
