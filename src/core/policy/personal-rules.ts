/**
 * A person's own rules, from their settings file only (never from the workspace: a repository
 * must not loosen its own checks). Each names a tool and either an argv prefix (a command) or a
 * path glob (a file tool). `deny` and `ask` join the policy's rules, so the merge makes a deny win
 * over everything; `allow` is consulted only where the policy would ask the person, after every
 * deny has had its say, and only where it can be sure of what it allows:
 * - a command only when its text is plain words (no quote, variable, operator or glob: what the
 *   words say is exactly what runs) and only when it runs in the sandbox;
 * - a path only when it is plain (no `.` or `..` segment, no backslash) and no link leads it
 *   elsewhere; a write of a file loaded later (core/policy/loaded-later-files.ts: `AGENTS.md`,
 *   `.vscode/`, …) only when the rule's own glob names such a place (`.vscode/**`,
 *   `docs/AGENTS.md`), not by a wide one (`src/**`, which the person wrote for source files); so
 *   too a file read through a link of such a name (`AGENTS.md -> docs/rules.md` makes
 *   `docs/rules.md` what the next session reads: `docs/**` does not allow it), and a file a
 *   package.json's install-time script runs or names (`"postinstall": "node src/post.js"`:
 *   `src/**` does not allow `src/post.js`), which need the disk to tell (write-loaded-later.ts's
 *   probes, asked only when a rule would otherwise allow the write);
 * - a rule that names only a tool, for an MCP server's tool (`mcp__server__tool`): any call of it.
 * A deny (or ask) is matched generously instead: a command's words however they are quoted, and
 * in order with anything between them (command-words.ts; a deny denies only the exact words, and
 * asks, naming itself, where only the generous reading matches); a path with its `.` and `..`
 * segments resolved, by the file a link leads it to (`reaches`), by any folder it lies in, and
 * however a case-blind filesystem spells it (`Secrets/KEY.txt` for `secrets/**`). A
 * text no reading can see through (`$(echo git) push`) is no allow's either: it is asked. A search
 * (grep, glob) is not refused for what it may find: it leaves out what a deny or ask names
 * (`withheldFrom`).
 */
import { loadedLaterReason } from "./loaded-later-files.js";
import { whyWriteIsLoadedLater, type LoadedLaterProbes } from "./write-loaded-later.js";
import { PermissionDecision } from "./permission-decision.js";
import type { PermissionRequest } from "./permission-request.js";
import { PermissionRule } from "./permission-rule.js";
import { commandsInText, runsRule, runsRuleExactly } from "./command-words.js";
import { GenerousGlob, globToRegExp } from "./path-globs.js";
import { namesAPlaceOutside } from "./names-outside.js";

export type PersonalBehavior = "allow" | "ask" | "deny";

export interface PersonalRuleSpec {
  readonly behavior: PersonalBehavior;
  /** A tool's registered name; an MCP server's tool is `mcp__<server>__<tool>`. */
  readonly tool: string;
  /** For a command tool: the words the command starts with. */
  readonly argv?: readonly string[];
  /** For a file tool: a workspace-relative glob (`*`, `?` within a name, `**` across). */
  readonly path?: string;
}

export const PERSONAL_RULE_SOURCE = "personal-rule";
const READ_FILE = "read_file";

export interface PersonalRulesOptions extends LoadedLaterProbes {
  /**
   * The tools that leave out of their results what a deny or ask path rule names (grep, glob:
   * `withheldFrom`): a search of the whole workspace, or of a folder, then runs without it, and
   * only a call that names such a file or folder itself is denied or asked.
   */
  readonly withholdingTools?: ReadonlySet<string>;
  /**
   * Tools that show what `read_file` would (grep its text, glob the names of what it may read): a
   * deny or ask of `read_file` for a path keeps the path from them too, since the person wrote
   * it to keep that file from the model.
   */
  readonly readingTools?: ReadonlySet<string>;
  /**
   * What a call of `path` reaches, links followed (the filesystem adapter's walk),
   * workspace-relative. A throw (a path that leads nowhere the walk can tell) counts as reaching
   * what a deny names.
   */
  readonly reaches?: (path: string) => string;
  /**
   * The harness's own file tools (read_file, write_file, edit_file, grep): they refuse any path
   * that leaves the workspace by its text (absolute, or a `..`), whatever the disk holds, so no
   * rule names such a path for them. An MCP tool's `path` is the server's to read: not among them.
   */
  readonly confinedTools?: ReadonlySet<string>;
}

/** The command's text or argv, as the command tools name it. */
function commandWords(request: PermissionRequest): { words: string[]; plain: boolean } | undefined {
  const args = request.call.arguments;
  if (typeof args.command === "string") {
    const text = args.command;
    const words = text.split(/[\s;&|<>()]+/u).filter((word) => word !== "");
    return { words, plain: PLAIN_COMMAND.test(text) };
  }
  const argv = programWords(args);
  return argv === undefined ? undefined : { words: argv, plain: true };
}

/** `run_command`'s program and arguments (or an argv), already one word each. */
function programWords(args: Readonly<Record<string, unknown>>): string[] | undefined {
  if (typeof args.program === "string") {
    const rest = Array.isArray(args.args) ? args.args.filter((a) => typeof a === "string") : [];
    return [args.program, ...rest];
  }
  if (Array.isArray(args.argv) && args.argv.every((word) => typeof word === "string")) {
    return args.argv;
  }
  return undefined;
}

/** The commands a call's text may run, each as its words, read the way a deny should read them. */
function commandsOf(request: PermissionRequest): (readonly string[])[] | undefined {
  const args = request.call.arguments;
  if (typeof args.command === "string") return commandsInText(args.command);
  const argv = programWords(args);
  return argv === undefined ? undefined : [argv];
}

/** Words of letters, digits and `-_./=:@+,%` separated by spaces: nothing a shell would expand. */
const PLAIN_COMMAND = /^[ \t]*[\w\-./=:@+,%]+(?:[ \t]+[\w\-./=:@+,%]+)*[ \t]*$/u;

function startsWith(words: readonly string[], prefix: readonly string[], at = 0): boolean {
  return prefix.every((word, index) => words[at + index] === word);
}

/** `a/./b/../c` as `a/c`; undefined when it climbs out or is absolute. */
function normalized(path: string): string | undefined {
  if (path.startsWith("/") || /^[A-Za-z]:/u.test(path)) return undefined;
  const out: string[] = [];
  for (const segment of path.replaceAll("\\", "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.pop() === undefined) return undefined;
    } else out.push(segment);
  }
  return out.join("/");
}

function isPlainPath(path: string): boolean {
  return (
    !path.includes("\\") &&
    !path.startsWith("/") &&
    path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..")
  );
}

export class PersonalRules {
  readonly #rules: readonly PersonalRuleSpec[];
  /** Where the disk says a write lands, what reads it through a link, what runs it at install. */
  readonly #probes: LoadedLaterProbes;
  readonly #withholdingTools: ReadonlySet<string>;
  readonly #readingTools: ReadonlySet<string>;
  readonly #reaches: PersonalRulesOptions["reaches"];
  readonly #confinedTools: ReadonlySet<string>;
  /** Each allow path rule's glob, compiled once (matched exactly). */
  readonly #exact = new Map<PersonalRuleSpec, RegExp>();
  /** Each deny or ask path rule's glob, compiled once (matched generously). */
  readonly #generous = new Map<PersonalRuleSpec, GenerousGlob>();
  /**
   * What each call's path reaches, walked once per call however many path rules ask (null: the
   * walk threw). Keyed by the request, so a call's answer goes with it.
   */
  readonly #reached = new WeakMap<PermissionRequest, string | null>();
  /** `#whyLoadedLater`'s answer per call (null: not loaded later). */
  readonly #loadedLater = new WeakMap<PermissionRequest, string | null>();
  /** The commands a call's text may run, read once per call however many command rules ask. */
  readonly #commands = new WeakMap<PermissionRequest, (readonly string[])[] | undefined>();

  constructor(rules: readonly PersonalRuleSpec[], options: PersonalRulesOptions = {}) {
    this.#rules = Object.freeze(rules.map((rule) => Object.freeze({ ...rule })));
    this.#probes = options;
    this.#withholdingTools = new Set(options.withholdingTools ?? []);
    this.#readingTools = new Set(options.readingTools ?? []);
    this.#reaches = options.reaches;
    this.#confinedTools = new Set(options.confinedTools ?? []);
    for (const rule of this.#rules) {
      if (rule.path === undefined) continue;
      if (rule.behavior === "allow") this.#exact.set(rule, globToRegExp(rule.path));
      else this.#generous.set(rule, new GenerousGlob(rule.path));
    }
    Object.freeze(this);
  }

  get size(): number {
    return this.#rules.length;
  }

  /** The `deny` and `ask` rules, as policy rules: the merge then lets a deny win over all. */
  policyRules(): PermissionRule[] {
    return this.#rules.flatMap((rule) => {
      if (rule.behavior === "allow") return [];
      const own = new PermissionRule({
        name: PERSONAL_RULE_SOURCE,
        behavior: rule.behavior,
        reason: `Your settings file: ${rule.behavior} ${describeRule(rule)}`,
        matches: (request) =>
          rule.behavior === "deny"
            ? this.#denyMatchesWords(rule, request)
            : this.#matchesGenerously(rule, request),
      });
      if (rule.behavior !== "deny" || rule.argv === undefined) return [own];
      // A command that may run what a deny names, read generously, is put to the person with
      // the rule named: `git stash push` is no `git push`, `git --no-pager push` is.
      const unsure = new PermissionRule({
        name: PERSONAL_RULE_SOURCE,
        behavior: "ask",
        reason: `Your settings file denies ${describeRule(rule)}, and this command may run it`,
        matches: (request) => this.#matchesGenerously(rule, request),
      });
      return [own, unsure];
    });
  }

  /**
   * What a withholding tool (grep, glob) must not look at: the globs of each deny or ask path
   * rule for it (`withheldPaths` reads them). Undefined when no rule names any.
   */
  withheldFrom(tool: string): readonly string[] | undefined {
    const globs = this.#rules.flatMap((rule) =>
      rule.behavior !== "allow" && rule.path !== undefined && this.#speaksFor(rule, tool)
        ? [rule.path]
        : [],
    );
    return globs.length === 0 ? undefined : globs;
  }

  /**
   * Whether a deny or ask path rule, for any tool, names what the call names: then nothing may
   * look inside it before the person is asked (an edit's precheck would tell the model whether
   * a text is there). A walk that throws counts as naming it.
   */
  keepsContent(request: PermissionRequest): boolean {
    if (typeof request.call.arguments.path !== "string") return false;
    return this.#rules.some(
      (rule) =>
        rule.behavior !== "allow" && rule.path !== undefined && this.#namesPath(rule, request),
    );
  }

  /** Whether a deny or ask `rule` speaks for `tool`: its own, every tool's, or read_file's reads. */
  #speaksFor(rule: PersonalRuleSpec, tool: string): boolean {
    return (
      rule.tool === "*" ||
      rule.tool === tool ||
      (rule.tool === READ_FILE && this.#readingTools.has(tool))
    );
  }

  /** A deny's own match: a command's words exactly, anything else as generously as ever. */
  #denyMatchesWords(rule: PersonalRuleSpec, request: PermissionRequest): boolean {
    const { argv } = rule;
    if (argv === undefined) return this.#matchesGenerously(rule, request);
    if (rule.tool !== "*" && rule.tool !== request.toolName) return false;
    return this.#commandsOf(request)?.some((words) => runsRuleExactly(words, argv)) === true;
  }

  /**
   * An allow for a call the policy would ask about, or undefined. `isolated`: whether a command
   * would run in the sandbox now (an allow for a command holds only there).
   */
  allowFor(request: PermissionRequest, isolated: boolean): PermissionDecision | undefined {
    // A deny or ask matching too keeps the question (deny has already won in the merge), and so
    // does one for another tool that names the same path: an allowed edit of a file whose reads
    // are denied would answer, old_string by old_string, what the file holds.
    if (
      this.#rules.some(
        (rule) => rule.behavior !== "allow" && this.#matchesGenerously(rule, request),
      )
    ) {
      return undefined;
    }
    if (this.keepsContent(request)) return undefined;
    const rule = this.#rules.find(
      (candidate) =>
        candidate.behavior === "allow" &&
        this.#allowAnswers(candidate, request, isolated) &&
        !this.#optionBeforeADeniedWord(candidate, request),
    );
    return rule === undefined
      ? undefined
      : PermissionDecision.allow(
          `Your settings file: allow ${describeRule(rule)}`,
          PERSONAL_RULE_SOURCE,
          `every call your settings file's allow ${describeRule(rule)} answers`,
        );
  }

  /**
   * Whether an allow's words (`git`) are the start of a deny's or ask's (`git push`) and the
   * command puts an option right after them (`git --no-pager …`, `git -C x …`): an option there may
   * change which word runs, so the allow does not answer.
   */
  #optionBeforeADeniedWord(allow: PersonalRuleSpec, request: PermissionRequest): boolean {
    const words = allow.argv;
    if (words === undefined) return false;
    const longer = this.#rules.some(
      (rule) =>
        rule.behavior !== "allow" &&
        rule.argv !== undefined &&
        rule.argv.length > words.length &&
        words.every((word, index) => rule.argv?.[index] === word),
    );
    if (!longer) return false;
    const next = commandWords(request)?.words[words.length];
    return next?.startsWith("-") === true;
  }

  #matchesGenerously(rule: PersonalRuleSpec, request: PermissionRequest): boolean {
    if (!this.#speaksFor(rule, request.toolName)) return false;
    const { argv } = rule;
    if (argv !== undefined) {
      return this.#commandsOf(request)?.some((words) => runsRule(words, argv)) === true;
    }
    if (rule.path !== undefined) {
      // A read that names no one file (grep, glob) may reach the files the rule names: one that
      // leaves them out of its results runs, any other is denied or asked. Commands are matched
      // by argv rules.
      if (typeof request.call.arguments.path !== "string") {
        return request.call.effect === "read" && !this.#withholdingTools.has(request.toolName);
      }
      return this.#namesPath(rule, request);
    }
    return true;
  }

  /**
   * Whether a deny's or ask's glob names the call's path: by the name given and by what it
   * reaches (`notes -> secrets` makes `notes/key.txt` a read of `secrets/key.txt`), each in any
   * spelling a case-blind filesystem takes for it.
   */
  #namesPath(rule: PersonalRuleSpec, request: PermissionRequest): boolean {
    const path = request.call.arguments.path;
    if (rule.path === undefined || typeof path !== "string") return false;
    // A rule names workspace paths. One that leaves the workspace by its text alone (`/etc/x`,
    // `../other/x`) is none of them, and the harness's file tools refuse it whatever the disk
    // holds: the refusal then speaks with its own reason, and nobody is asked about a call that
    // cannot run.
    if (this.#confinedTools.has(request.toolName) && namesAPlaceOutside(path)) return false;
    const glob = this.#generous.get(rule);
    // Compiled for every deny and ask rule with a path; one missing names everything.
    if (glob === undefined) return true;
    const reached = this.#reachedBy(request, path);
    if (reached === null) return true;
    const names = [normalized(path), request.landsOn, reached].filter((p) => p !== undefined);
    if (names.length === 0) return true;
    return names.some((name) => glob.namesPathOrFolder(name));
  }

  #commandsOf(request: PermissionRequest): (readonly string[])[] | undefined {
    if (!this.#commands.has(request)) this.#commands.set(request, commandsOf(request));
    return this.#commands.get(request);
  }

  /** What `path` reaches through links, when the walk is given; null when the walk throws. */
  #reachedBy(request: PermissionRequest, path: string): string | null | undefined {
    if (this.#reaches === undefined) return undefined;
    const known = this.#reached.get(request);
    if (known !== undefined) return known;
    let reached: string | null;
    try {
      reached = this.#reaches(path);
    } catch {
      reached = null;
    }
    this.#reached.set(request, reached);
    return reached;
  }

  /**
   * Why an allow rule whose glob matches this write's path does not answer it (the file is loaded
   * later, by its name, through a link, or by an install script), said above the question so the
   * rule does not look ignored; undefined when no such rule is there.
   */
  uncovered(request: PermissionRequest): string | undefined {
    if (request.call.effect !== "write") return undefined;
    const rule = this.#rules.find(
      (candidate) =>
        candidate.behavior === "allow" &&
        candidate.path !== undefined &&
        !namesLoadedLater(candidate.path) &&
        this.#allowMatchesIgnoringLoadedLater(candidate, request, true),
    );
    const why = rule === undefined ? undefined : this.#whyLoadedLater(request);
    if (rule === undefined || why === undefined) return undefined;
    // Only a place on the list by its own name can have a rule of its own (`.vscode/**`); a file
    // read through a link, or run by an install script, is asked whatever rule names it.
    const path = request.call.arguments.path;
    const byName = typeof path === "string" && loadedLaterReason(path) !== undefined;
    // A glob with a wildcard in the name (`**/*.lock`) is as wide as `src/**` here: say what does.
    const named = byName ? `a rule naming ${JSON.stringify(path)} itself would` : "";
    return `Your rule allow ${describeRule(rule)} does not cover it: ${why}; ${byName ? named : "no rule can, so it is asked each time"}`;
  }

  /** Whether an allow rule answers this call (what is loaded later only by a rule naming it). */
  #allowAnswers(rule: PersonalRuleSpec, request: PermissionRequest, isolated: boolean): boolean {
    if (!this.#allowMatchesIgnoringLoadedLater(rule, request, isolated)) return false;
    // A write of a file loaded later is allowed only by a rule that names that place itself.
    return (
      rule.path === undefined ||
      request.call.effect !== "write" ||
      namesLoadedLater(rule.path) ||
      this.#whyLoadedLater(request) === undefined
    );
  }

  /** Whether the rule matches the call by tool, words or path, before what is loaded later. */
  #allowMatchesIgnoringLoadedLater(
    rule: PersonalRuleSpec,
    request: PermissionRequest,
    isolated: boolean,
  ): boolean {
    // `*` with a path allows the writes of this machine's file tools (write_file and edit_file
    // alike), nothing else: not a call to another service that happens to take a `path`.
    const everyFileWrite =
      rule.tool === "*" &&
      rule.path !== undefined &&
      request.call.effect === "write" &&
      !request.call.remote;
    if (rule.tool !== request.toolName && !everyFileWrite) return false;
    if (rule.argv !== undefined) {
      const command = commandWords(request);
      return (
        isolated && command !== undefined && command.plain && startsWith(command.words, rule.argv)
      );
    }
    if (rule.path !== undefined) {
      const path = request.call.arguments.path;
      return (
        typeof path === "string" &&
        isPlainPath(path) &&
        request.landsOn === undefined &&
        this.#exact.get(rule)?.test(path) === true
      );
    }
    // A rule that names only the tool allows only a call to another service (an MCP server's
    // tool, `mcp__server__tool`): what it sends is the tool's business, not a path or a command.
    return request.call.remote;
  }

  /**
   * Why the file a write names is loaded later (write-loaded-later.ts: the reason chapter 4 gives
   * too); undefined when it is not. Asked of the disk at most once per call (the rule check and
   * the note above the question share it), and only when needed.
   */
  #whyLoadedLater(request: PermissionRequest): string | undefined {
    const known = this.#loadedLater.get(request);
    if (known !== undefined) return known ?? undefined;
    const path = request.call.arguments.path;
    const why =
      typeof path !== "string" ? undefined : whyWriteIsLoadedLater(path, this.#probes)?.reason;
    this.#loadedLater.set(request, why ?? null);
    return why;
  }
}

/**
 * Why a rule can never decide anything in a run whose tools are `tools` (name → effect), or
 * undefined when it can: a tool the run does not have (`read-file`), `argv` for a file tool or
 * `path` for a command (a command's reads are its own), an allow for every tool's command. Said
 * before the run, as a wrong setting is, rather than leaving the person to trust a rule that is
 * never consulted.
 */
export function unusableRule(
  rule: PersonalRuleSpec,
  tools: ReadonlyMap<string, string>,
): string | undefined {
  if (rule.tool.startsWith("mcp__")) return undefined;
  const names = [...tools.keys()].join(", ");
  if (rule.tool === "*") {
    return rule.behavior === "allow" && rule.argv !== undefined
      ? `an allow of a command names its tool (one of ${names}), not *`
      : undefined;
  }
  const effect = tools.get(rule.tool);
  if (effect === undefined) {
    return `there is no tool "${rule.tool}" in this profile (its tools: ${names})`;
  }
  if (rule.argv !== undefined && effect !== "execute") {
    return `argv is for a command tool; ${rule.tool} takes a path`;
  }
  if (rule.path !== undefined && effect === "execute") {
    return `path is for a file tool; a command reads and writes what it runs, so name its words with argv`;
  }
  return rule.argv === undefined ? undefined : spacedWord(rule.argv);
}

/**
 * `["git push"]` reads as the command `git push` but is one word, and a rule compares a command
 * word by word (its text split at blanks, however it quotes them): it would never decide a call.
 */
function spacedWord(argv: readonly string[]): string | undefined {
  const spaced = argv.find((word) => /\s/u.test(word));
  if (spaced === undefined) return undefined;
  const apart = JSON.stringify(argv.flatMap((word) => word.split(/\s+/u).filter(Boolean)));
  return `argv's word ${JSON.stringify(spaced)} holds a blank, and a rule compares a command word by word: write the words apart, ${apart}`;
}

/** Whether a glob, its wildcards taken as ordinary names, names a file or folder loaded later. */
function namesLoadedLater(glob: string): boolean {
  return loadedLaterReason(glob.replace(/\*+|\?/gu, "x")) !== undefined;
}

/** How a rule is named in reasons and in `/permissions`: `shell git push …`, `* secrets/**`. */
export function describeRule(rule: PersonalRuleSpec): string {
  if (rule.argv !== undefined) {
    // A word with a blank in it is shown quoted, so `["git push"]` never reads as `["git","push"]`.
    const words = rule.argv.some((word) => /\s|^$/u.test(word))
      ? JSON.stringify(rule.argv)
      : rule.argv.join(" ");
    return `${rule.tool} ${words} …`;
  }
  if (rule.path !== undefined) return `${rule.tool} ${rule.path}`;
  return rule.tool;
}
