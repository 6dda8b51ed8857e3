/**
 * What `make` reads and runs that the workspace holds, read as npm's scripts are: the makefiles
 * it reads (`-f`, else the first of GNUmakefile, makefile, Makefile, in the `-C` folder; and the
 * makefiles they include, from there and the `-I` folders), each bound by content, and the text
 * of every recipe and `$(shell …)` they hold, handed to the one script reader (command-reach.ts)
 * as an npm script's text is, so a file a recipe runs or names is bound (`sh src/build.sh`).
 *
 * Make's variables are expanded where their value is certain (make-variables.ts); what stays
 * unknown is read as a word the shell expands, so it refuses where it would decide what runs (the
 * program, an interpreter's file, an include) and binds nothing where it is an argument, as a
 * script's `$NAME` does. An include whose name stays unknown (`-include $(DEPS)` where DEPS comes
 * from a function) names makefile text the harness cannot see, and refuses; one built from
 * literal lists or `$(wildcard …)` binds the files it names now. All is bounded: at most
 * MAX_MAKEFILES makefiles and MAX_RECIPE_LINES recipe lines are read, or the command is refused.
 */
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import {
  LoaderVariableError,
  UnbindableCommandError,
} from "../../core/grants/unbindable-command.js";
import { MAKE_LOADER_VARIABLES } from "./loader-variables.js";
import { builtinSources } from "./make-builtin-rules.js";
import { loaderVariable, makeOptions, QUIET_MAKEFLAGS, type MakeOptions } from "./make-options.js";
import { MakeVariables, type Automatic, type MakeOutside } from "./make-variables.js";
import { makeWildcard, MAX_WILDCARD_MATCHES } from "./make-wildcard.js";
import { parseMakefile, type MakefileLine } from "./makefile-text.js";

/** The makefiles GNU make reads when it is given none, in its order: the first there is read. */
const DEFAULT_MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];
const MAX_MAKEFILES = 64;
const MAX_RECIPE_LINES = 20_000;
/** Names whose built-in rules' sources are bound; past it the command is refused. */
const MAX_BUILTIN_NAMES = 1_000;
/**
 * A target that is no file's name: make's special targets (`.DEFAULT`, `.PHONY`) and old-style
 * suffix rules (`.c.o:`, `.sh:`), which make applies as patterns, so `$@` and `$<` are unknown.
 */
const SUFFIX_OR_SPECIAL = /^\.[^./%\s]+(?:\.[^./%\s]+)?$/u;
/** The variables make's built-in rules' recipes run as their program (`$(CC)`, `$(COMPILE.c)`). */
const BUILTIN_RECIPE_PROGRAMS =
  /^(?:CC|CXX|CPP|AS|FC|PC|M2C|YACC|LEX|TEX|WEAVE|CWEAVE|TANGLE|CTANGLE|MAKEINFO|TEXI2DVI|CO|GET|LD|AR|RM|LINT)$|^(?:COMPILE|LINK|PREPROCESS|LINT|YACC|LEX|CHECKOUT)[.,]/u;
/** make's special targets: names of no file, which no rule builds. */
const SPECIAL_TARGETS = new Set(
  (
    ".PHONY .SUFFIXES .DEFAULT .PRECIOUS .INTERMEDIATE .NOTINTERMEDIATE .SECONDARY " +
    ".SECONDEXPANSION .DELETE_ON_ERROR .IGNORE .LOW_RESOLUTION_TIME .SILENT " +
    ".EXPORT_ALL_VARIABLES .NOTPARALLEL .ONESHELL .POSIX"
  ).split(" "),
);
/** The shells whose text the reader reads: recipes under any other SHELL are not sh's text. */
const SHELLS = /^(?:\/(?:usr\/)?bin\/)?(?:sh|bash|dash)$/u;

/** What make's reader needs of the script reader (command-reach.ts's Reach). */
export interface MakeHost {
  /** Where the command runs: make's `-C` folder starts from here. */
  readonly cwd: string;
  /** A makefile make reads, by its name from cwd: bound by content, or by its absence. */
  bind(path: string, expands: boolean, shown: string): void;
  /** Whether anything is there now. */
  exists(path: string): boolean;
  /** The text of a makefile just bound; undefined when nothing is there. */
  text(path: string): string | undefined;
  /**
   * `name` (from cwd) may be built by make's built-in rules from `sources` (from cwd), of which
   * `present` are there now: each is bound (by content, or by its absence).
   */
  builtin(name: string, sources: readonly string[], present: readonly string[]): void;
  /** The names in a folder, undefined when it is none. */
  list(path: string): readonly string[] | undefined;
  /**
   * What reads the shell text make runs in `directory` (its recipes, `$(shell …)`) as a script's
   * text, one reader for all of it, with what a make it starts inherits.
   */
  runner(directory: string, inherited: MakeContext): (text: string) => void;
}

/** What a make started by a recipe inherits from the one that runs it, and what all share. */
export interface MakeContext {
  readonly mayHold: (name: string) => boolean;
  readonly environment: ReadonlyMap<string, string | undefined>;
  /** A parent make's command-line variables, which it passes on in MAKEFLAGS. */
  readonly commandLine: ReadonlyMap<string, string | undefined>;
  readonly environmentOverrides: boolean;
  readonly budget: { makefiles: number; recipeLines: number; readonly runs: Set<string> };
}

export function newMakeContext(mayHold: (name: string) => boolean): MakeContext {
  return {
    mayHold,
    environment: new Map(),
    commandLine: new Map(),
    environmentOverrides: false,
    budget: { makefiles: 0, recipeLines: 0, runs: new Set() },
  };
}

/** `make ARGS`, run where `host` reads, with the command's own `VAR=x` before it. */
export function readMake(
  host: MakeHost,
  args: readonly string[],
  expands: readonly boolean[],
  shown: string,
  context: MakeContext,
  assigned: ReadonlyMap<string, string | undefined>,
): void {
  const options = makeOptions(args, expands, shown);
  const environment = new Map([...context.environment, ...assigned]);
  const makefiles = makefilesOf(host, options, environment, shown, context.mayHold);
  const commandLine = new Map([...context.commandLine, ...options.commandLine]);
  const key = JSON.stringify([
    resolve(host.cwd, options.directory),
    makefiles,
    [...commandLine],
    [...environment],
  ]);
  // A recipe that runs make again on the same files (`$(MAKE) check`) is read once.
  if (context.budget.runs.has(key)) return;
  context.budget.runs.add(key);
  const reader = new MakefileReader(host, options, shown, {
    ...context,
    environment,
    commandLine,
    environmentOverrides: context.environmentOverrides || options.environmentOverrides,
  });
  for (const makefile of makefiles) reader.read(makefile);
  reader.finish();
}

/**
 * The makefiles make reads first, each bound: MAKEFILES's, then `-f`'s, else the one it picks
 * of the defaults (those before it bound as absent: one written later is read instead).
 */
function makefilesOf(
  host: MakeHost,
  options: MakeOptions,
  environment: ReadonlyMap<string, string | undefined>,
  shown: string,
  mayHold: (name: string) => boolean,
): string[] {
  const from = (word: string): string => (isAbsolute(word) ? word : join(options.directory, word));
  const read: string[] = [];
  const extra = environment.get("MAKEFILES");
  if (
    (environment.has("MAKEFILES") && extra === undefined) ||
    (!environment.has("MAKEFILES") && mayHold("MAKEFILES"))
  ) {
    throw new UnbindableCommandError(
      `${shown} is given MAKEFILES the shell expands, so the harness cannot say which makefiles it reads; name them plainly`,
    );
  }
  for (const word of (extra ?? "").split(/\s+/u).filter(Boolean)) {
    host.bind(from(word), false, shown);
    read.push(from(word));
  }
  for (const file of options.files) {
    if (file.word === "-") {
      throw new UnbindableCommandError(
        `${shown} -f - reads its makefile from stdin (a redirect or a pipe), which the harness cannot bind to an approval; give it the file by name`,
      );
    }
    host.bind(file.expands ? file.word : from(file.word), file.expands, shown);
    read.push(from(file.word));
  }
  if (options.files.length > 0) return read;
  for (const makefile of DEFAULT_MAKEFILES) {
    host.bind(from(makefile), false, shown);
    if (host.exists(from(makefile))) return [...read, from(makefile)];
  }
  return read;
}

interface Rule {
  readonly line: Extract<MakefileLine, { kind: "rule" }>;
  readonly at: number;
  readonly makefile: string;
}

class MakefileReader {
  readonly #variables: MakeVariables;
  readonly #rules: Rule[] = [];
  readonly #expressions: { text: string; at: number }[] = [];
  readonly #read = new Set<string>();
  readonly #shellTexts = new Set<string>();
  readonly #exported = new Set<string>();
  #exportAll = false;
  /** `.ONESHELL:`: each recipe is one script, its lines read together. */
  #oneShell = false;
  /** `MAKEFLAGS += -r` in a makefile, where make always reads it. */
  #noBuiltinRules = false;
  /** The makefiles and includes make reads: it may build them with its built-in rules too. */
  readonly #makefileNames = new Set<string>();
  /** vpath, VPATH or .SECONDEXPANSION: which file `$<` is depends on more than the rule's words. */
  #searched = false;
  #at = 0;
  readonly #directory: string;
  /** One reader for every text this make runs, made once the makefiles are read. */
  #runner: ((text: string) => void) | undefined;

  constructor(
    readonly host: MakeHost,
    readonly options: MakeOptions,
    readonly shown: string,
    readonly context: MakeContext,
  ) {
    this.#directory = resolve(host.cwd, options.directory);
    const outside: MakeOutside = {
      commandLine: context.commandLine,
      environment: context.environment,
      mayHold: context.mayHold,
      environmentOverrides: context.environmentOverrides,
      noBuiltinVariables: options.noBuiltinVariables,
      curdir: this.#directory,
    };
    this.#variables = new MakeVariables(outside, {
      shell: (text) => {
        this.#shell(text);
      },
      wildcard: (words) =>
        makeWildcard(words, this.#directory, host, () => {
          throw new UnbindableCommandError(
            `${this.shown}'s $(wildcard ${words}) matches over ${MAX_WILDCARD_MATCHES} files, more than the harness reads to bind an approval`,
          );
        }),
    });
  }

  /** One makefile, in make's reading order, its includes read where they stand. */
  read(makefile: string): void {
    const path = resolve(this.host.cwd, makefile);
    if (this.#read.has(path)) return;
    this.#read.add(path);
    this.context.budget.makefiles += 1;
    if (this.context.budget.makefiles > MAX_MAKEFILES) {
      throw new UnbindableCommandError(
        `${this.shown} reads over ${MAX_MAKEFILES} makefiles, more than the harness reads to bind an approval`,
      );
    }
    this.#makefileNames.add(makefile);
    const text = this.host.text(makefile);
    if (text === undefined) return;
    for (const line of parseMakefile(text)) {
      this.#at += 1;
      this.#line(line, makefile);
    }
  }

  #line(line: MakefileLine, makefile: string): void {
    const at = this.#at;
    switch (line.kind) {
      case "define": {
        const name = this.#variables.expand(line.name, at);
        this.#loaderVariable(name, makefile);
        if (name.includes("$")) this.#variables.defineUnknown();
        if (/^(?:GNU)?MAKEFLAGS$|^MFLAGS$/u.test(name)) this.#makeflags(line, makefile, at);
        if (name === "VPATH") this.#searched = true;
        if (line.exported) this.#exported.add(name);
        this.#variables.define(name, {
          operator: line.operator,
          value: line.value,
          at,
          uncertain: line.conditional,
          override: line.override,
        });
        // `:=` and `!=` are expanded (and `!=` run) where they stand.
        if (line.operator === "!=") this.#shell(this.#variables.expand(line.value, at));
        else if (![":=", "::=", ":::="].includes(line.operator)) return;
        this.#variables.expand(line.value, at);
        return;
      }
      case "targetVariable":
        this.#loaderVariable(this.#variables.expand(line.name, at), makefile);
        this.#variables.define(this.#variables.expand(line.name, at), {
          operator: "=",
          value: line.value,
          at,
          uncertain: true,
          override: false,
        });
        this.#expressions.push({ text: line.value, at });
        return;
      case "include":
        this.#include(line.names, makefile, at);
        return;
      case "export":
        if (line.names === undefined) this.#exportAll = true;
        else
          for (const name of this.#variables.expand(line.names, at).split(/\s+/u))
            this.#exported.add(name);
        return;
      case "rule":
        if (/^\.SECONDEXPANSION\b/u.test(line.targets)) this.#searched = true;
        if (/^\.EXPORT_ALL_VARIABLES\b/u.test(line.targets)) this.#exportAll = true;
        if (/^\.ONESHELL\b/u.test(line.targets)) this.#oneShell = true;
        this.#rules.push({ line, at, makefile });
        return;
      case "expression":
        this.#variables.expand(line.text, at);
        return;
      case "vpath":
        this.#searched = true;
        return;
      case "refused":
        throw new UnbindableCommandError(
          `${this.shown}'s ${makefile} ${line.why}, so it cannot be bound to an approval`,
        );
    }
  }

  /**
   * A makefile that sets PATH, BASH_ENV, LD_PRELOAD, … (or a variable whose name the harness
   * cannot tell) changes what every recipe runs: make passes an inherited variable on with the
   * makefile's value, and an exported one in any case. Refused, whether exported here or not.
   */
  #loaderVariable(name: string, makefile: string): void {
    if (name.includes("$")) {
      throw new LoaderVariableError(
        `${this.shown}'s ${makefile} sets a variable whose name make builds (${JSON.stringify(name)}), which may be PATH or another that chooses which program a recipe runs; name the variable plainly`,
      );
    }
    if (MAKE_LOADER_VARIABLES.has(name)) throw loaderVariable(this.shown, name, makefile);
  }

  /**
   * MAKEFLAGS set in a makefile: make takes its options as its own command line's, so only those
   * that change nothing of what runs are read (`-r` turns the built-in rules off); any other
   * (`--eval`, `-f`, `VAR=x`, one the harness cannot expand) is refused.
   */
  #makeflags(line: Extract<MakefileLine, { kind: "define" }>, makefile: string, at: number): void {
    const words = this.#variables.expand(line.value, at).split(/\s+/u).filter(Boolean);
    for (const word of words) {
      if (QUIET_MAKEFLAGS.test(word)) continue;
      throw new UnbindableCommandError(
        `${this.shown}'s ${makefile} sets ${line.name} to ${JSON.stringify(line.value)}, whose ${JSON.stringify(word)} may change what make reads or runs; pass make's options on its command line`,
      );
    }
    if (line.name !== "MAKEFLAGS") return;
    const off = words.some(
      (word) => word === "--no-builtin-rules" || /^-?[rRsSkiw]*r[rRsSkiw]*$/u.test(word),
    );
    // Under a condition make may not read it, and a later `=` may drop the -r: then the
    // built-in rules stay bound.
    const certain = !line.conditional && line.operator !== "?=";
    if (line.operator === "+=") this.#noBuiltinRules ||= certain && off;
    else this.#noBuiltinRules = certain ? off : this.#noBuiltinRules && off;
  }

  /**
   * `include NAMES`: each makefile it names, from make's folder and each `-I` folder, bound and
   * read. A pattern make matches against the files there is refused, as is a name make builds
   * from a value the harness cannot know: both hide which makefile text runs.
   */
  #include(names: string, makefile: string, at: number): void {
    const expanded = this.#variables.expand(names, at);
    for (const word of expanded.split(/\s+/u)) {
      if (word === "") continue;
      if (word.includes("$")) {
        throw new UnbindableCommandError(
          `${this.shown}'s ${makefile} includes ${JSON.stringify(names)}, which names ${JSON.stringify(word)}: make builds the name from a value the harness cannot know (a function, the environment, a variable set twice or under a condition), so it cannot say which makefile text runs; include the makefiles by name or from a plain list`,
        );
      }
      if (/[*?[]/u.test(word)) {
        throw new UnbindableCommandError(
          `${this.shown}'s ${makefile} includes ${JSON.stringify(word)}, a pattern make matches against the files there, so the harness cannot say which makefiles it reads; include them by name`,
        );
      }
      const from = (dir: string): string =>
        isAbsolute(dir) ? dir : join(this.options.directory, dir);
      const candidates = isAbsolute(word)
        ? [word]
        : [from(word), ...this.options.includeDirs.map((dir) => join(from(dir), word))];
      for (const candidate of candidates) {
        if (this.#read.has(resolve(this.host.cwd, candidate))) continue;
        this.host.bind(candidate, false, this.shown);
        this.read(candidate);
      }
    }
  }

  /** Text make runs while it reads (`$(shell …)`, `VAR != …`): read once, with the recipes. */
  #shell(text: string): void {
    this.#shellTexts.add(text);
  }

  #run(text: string, what: string): void {
    this.#runner ??= this.host.runner(this.#directory, this.#inherited());
    try {
      this.#runner(text);
    } catch (error) {
      if (!(error instanceof UnbindableCommandError)) throw error;
      throw new UnbindableCommandError(
        `${this.shown} runs ${what} ${JSON.stringify(text)}, which cannot be bound: ${error.message}`,
      );
    }
  }

  /** What a make that a recipe starts inherits: this one's command line and exports. */
  #inherited(): MakeContext {
    const environment = new Map(this.context.environment);
    for (const name of this.#exported) environment.set(name, undefined);
    const mayHold = this.#exportAll ? (): boolean => true : this.context.mayHold;
    return { ...this.context, environment, mayHold };
  }

  /**
   * After the makefiles are read: the SHELL recipes run under, every definition's text (for the
   * `$(shell …)` in it), then each rule's recipe, for each of its targets.
   */
  finish(): void {
    this.#recipeShell();
    for (const [, definitions] of this.#variables.definitions()) {
      for (const definition of definitions) this.#variables.expand(definition.value, definition.at);
    }
    for (const { text, at } of this.#expressions) this.#variables.expand(text, at);
    for (const text of this.#shellTexts) this.#run(text, "$(shell …)");
    const counts = new Map<string, number>();
    const rules = this.#rules.map((rule) => {
      const targets = this.#words(rule.line.targets, rule.at);
      for (const target of targets) counts.set(target, (counts.get(target) ?? 0) + 1);
      return { rule, targets };
    });
    for (const { rule, targets } of rules) {
      if (rule.line.recipe.length === 0) continue;
      const prerequisites = this.#words(rule.line.prerequisites, rule.at);
      const orderOnly = this.#words(rule.line.orderOnly, rule.at);
      const known =
        !this.#searched &&
        !rule.line.staticPattern &&
        [...targets, ...prerequisites, ...orderOnly].every((word) => !/[$%]/u.test(word)) &&
        targets.every((target) => counts.get(target) === 1 && !SUFFIX_OR_SPECIAL.test(target));
      for (const target of known ? targets : [undefined]) {
        const automatic =
          target === undefined ? undefined : automaticOf(target, prerequisites, orderOnly);
        this.#recipe(rule.line.recipe, automatic);
      }
    }
    if (!this.options.noBuiltinRules && !this.#noBuiltinRules) this.#builtinRules(rules);
  }

  /** A rule's recipe: line by line, or under .ONESHELL as one script of all its lines. */
  #recipe(lines: readonly string[], automatic: Automatic | undefined): void {
    const texts = lines.map((line) => this.#recipeLine(line, automatic));
    if (this.#oneShell) this.#run(texts.join("\n"), "the recipe");
    else for (const text of texts) this.#run(text, "the recipe");
  }

  /**
   * Each name make may build that no rule gives a recipe (its goals, every rule's targets and
   * prerequisites, its makefiles), except .PHONY's: make's built-in rules may build it from
   * sources the makefiles never name (`hello` from `hello.sh`), so those are bound, present or
   * not. A name the harness cannot know is refused: its sources could be any file.
   */
  #builtinRules(rules: readonly { rule: Rule; targets: readonly string[] }[]): void {
    const withRecipe = new Set<string>();
    const phony = new Set<string>();
    const names = new Set<string>();
    const add = (word: string, expands: boolean): void => {
      if (expands || word.includes("$")) {
        throw new UnbindableCommandError(
          `${this.shown} may build ${JSON.stringify(word)}, a name the harness cannot know, with make's built-in rules (from a .c, .sh, … file of that name), so it cannot say which file runs; name the targets plainly, or turn the built-in rules off (make -r, or MAKEFLAGS += -r)`,
        );
      }
      // `.env` may be a file built from `.env.sh`: only make's own special names are left out.
      if (!word.includes("%") && !SPECIAL_TARGETS.has(word)) names.add(word);
    };
    for (const goal of this.options.goals) add(goal.word, goal.expands);
    for (const makefile of this.#makefileNames) add(makefile, false);
    for (const { rule, targets } of rules) {
      const prerequisites = [
        ...this.#words(rule.line.prerequisites, rule.at),
        ...this.#words(rule.line.orderOnly, rule.at),
      ];
      if (targets.includes(".PHONY")) for (const name of prerequisites) phony.add(name);
      if (rule.line.recipe.length > 0) for (const target of targets) withRecipe.add(target);
      for (const word of [...targets, ...prerequisites]) add(word, false);
    }
    const chosen = [...names].filter((name) => !withRecipe.has(name) && !phony.has(name));
    if (chosen.length > MAX_BUILTIN_NAMES) {
      throw new UnbindableCommandError(
        `${this.shown} may build over ${MAX_BUILTIN_NAMES} files with make's built-in rules, more than the harness reads to bind an approval; turn them off (make -r, or MAKEFLAGS += -r)`,
      );
    }
    const listed = new Map<string, ReadonlySet<string>>();
    const isThere = (path: string): boolean => {
      const folder = dirname(path);
      let names = listed.get(folder);
      if (names === undefined) {
        names = new Set(this.host.list(folder) ?? []);
        listed.set(folder, names);
      }
      return names.has(basename(path));
    };
    let used = false;
    for (const name of chosen) {
      const from = (word: string): string =>
        isAbsolute(word) ? word : join(this.options.directory, word);
      const sources = builtinSources(name).map(from);
      const present = sources.filter(isThere);
      used ||= present.length > 0;
      this.host.builtin(from(name), sources, present);
    }
    if (used) this.#builtinPrograms();
  }

  /**
   * A built-in rule that may run runs the program its variables name (`$(CC)`, `$(YACC)`,
   * `$(LINK.c)`): where the makefiles or make's command line set one (`CC = sh ./cc.sh`), it is
   * read as a recipe's first words are, so the file it runs is bound (or the command refused).
   */
  #builtinPrograms(): void {
    const names = new Set([
      ...this.#variables.definitions().map(([name]) => name),
      ...this.context.commandLine.keys(),
    ]);
    for (const name of names) {
      if (!BUILTIN_RECIPE_PROGRAMS.test(name)) continue;
      this.#run(this.#variables.expand(`$(${name})`, Infinity), "a built-in rule's program");
    }
  }

  /** One recipe line, as the shell is given it (make's `@`, `-`, `+` taken off). */
  #recipeLine(line: string, automatic: Automatic | undefined): string {
    this.context.budget.recipeLines += 1;
    if (this.context.budget.recipeLines > MAX_RECIPE_LINES) {
      throw new UnbindableCommandError(
        `${this.shown}'s makefiles hold over ${MAX_RECIPE_LINES} recipe lines, more than the harness reads to bind an approval`,
      );
    }
    // `@`, `-` and `+` before a line are make's, before and after it expands the line.
    const text = this.#variables.expand(line.replace(/^[\s@+-]*/u, ""), Infinity, automatic);
    return text.replace(/^[\s@+-]*/u, "");
  }

  /**
   * SHELL and .SHELLFLAGS as the makefiles set them: recipes are read as sh's text, so only a
   * shell that reads them so (sh, bash, dash, given `-c`) may run them.
   */
  #recipeShell(): void {
    const names = new Set([
      ...this.#variables.definitions().map(([name]) => name),
      ...this.context.commandLine.keys(),
    ]);
    const shell = names.has("SHELL") ? this.#variables.expand("$(SHELL)", Infinity).trim() : "sh";
    const flags = names.has(".SHELLFLAGS")
      ? this.#variables.expand("$(.SHELLFLAGS)", Infinity).trim()
      : "-c";
    if (!SHELLS.test(shell) || !["-c", "-ec", "-e -c"].includes(flags)) {
      throw new UnbindableCommandError(
        `${this.shown}'s makefiles run their recipes with ${JSON.stringify(`${shell} ${flags}`)}, not sh, bash or dash with -c, so the harness cannot read them as shell text; leave SHELL and .SHELLFLAGS unset`,
      );
    }
  }

  #words(text: string, at: number): string[] {
    return this.#variables.expand(text, at).split(/\s+/u).filter(Boolean);
  }
}

/** A recipe's automatic variables for one target of an explicit rule, as make sets them. */
function automaticOf(
  target: string,
  prerequisites: readonly string[],
  orderOnly: readonly string[],
): Automatic {
  const unique = [...new Set(prerequisites)].join(" ");
  return new Map([
    ["@", target],
    ["<", prerequisites[0] ?? ""],
    ["^", unique],
    ["+", prerequisites.join(" ")],
    // The prerequisites newer than the target: all of them binds at least as much.
    ["?", unique],
    ["|", [...new Set(orderOnly)].join(" ")],
  ]);
}
