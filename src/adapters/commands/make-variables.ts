/**
 * Make's variables as far as the harness can know them, to read what a makefile's includes and
 * recipes name. A reference is expanded only where its value is certain: a variable the makefiles
 * define once, unconditionally (`VAR = x`, `VAR := x`, `VAR ?= x` where the environment cannot set
 * VAR), from values it can expand in turn; a command-line `VAR=x`; a recipe's automatic variables
 * in an explicit rule (`$@`, `$<`, `$^`); make's own program defaults (`$(CC)` is `cc`) where
 * the command's environment cannot hold them; `$(wildcard …)` of the files there now. Any other
 * reference (a function's result, `$(shell …)`'s output, a name set twice, in a conditional, for
 * one target, or by the environment) stays a `${NAME}` the shell would expand, so the reader that
 * reads it refuses it wherever it would decide what runs, as it refuses a script's `$NAME`.
 * `$(shell TEXT)` and `VAR != TEXT` run TEXT: it is handed on to be read as a script's text;
 * `$(eval …)` and `$(guile …)` add makefile text or code the harness cannot read, and refuse.
 */
import { UnbindableCommandError } from "../../core/grants/unbindable-command.js";
import type { AssignmentOperator } from "./makefile-text.js";

export interface Definition {
  readonly operator: AssignmentOperator;
  readonly value: string;
  /** Its place in make's reading order: an immediate expansion before it does not see it. */
  readonly at: number;
  /** In a conditional, for one target only, or with a name that is itself expanded. */
  readonly uncertain: boolean;
  readonly override: boolean;
}

/** What make takes from outside the makefiles. */
export interface MakeOutside {
  /** `VAR=x` words of make's own (and of a make that runs this one): undefined where unknown. */
  readonly commandLine: ReadonlyMap<string, string | undefined>;
  /** Values the command sets in make's environment (`VAR=x make`): undefined where unknown. */
  readonly environment: ReadonlyMap<string, string | undefined>;
  /** Whether the environment make starts with may hold the name (whatever its value). */
  readonly mayHold: (name: string) => boolean;
  readonly environmentOverrides: boolean;
  readonly noBuiltinVariables: boolean;
  /** make's folder, absolute: `$(CURDIR)`. */
  readonly curdir: string;
}

/** A recipe's automatic variables, for one target of an explicit rule. */
export type Automatic = ReadonlyMap<string, string>;

export interface ExpandHooks {
  /** `$(shell TEXT)` as expanded: text make runs while reading. */
  readonly shell: (text: string) => void;
  /** `$(wildcard WORDS)`: the files there now, as make lists them. */
  readonly wildcard: (words: string) => string;
}

/**
 * make's own variables that name a program, with the value make gives them: the command's
 * environment decides whether they are certain (mayHold).
 */
const BUILTIN_PROGRAMS: ReadonlyMap<string, string> = new Map([
  ["CC", "cc"],
  ["CXX", "g++"],
  ["CPP", "cc -E"],
  ["AS", "as"],
  ["AR", "ar"],
  ["LD", "ld"],
  ["FC", "f77"],
  ["RM", "rm -f"],
  ["MAKE", "make"],
]);

/** Functions the reader knows; any other `$(word …)` is a variable's name with a blank in it. */
const FUNCTIONS = new Set(
  (
    "subst patsubst strip findstring filter filter-out sort word wordlist words firstword " +
    "lastword dir notdir suffix basename addsuffix addprefix join wildcard realpath abspath if " +
    "or and intcmp foreach file call value eval origin flavor shell guile error warning info let"
  ).split(" "),
);

const PLACEHOLDER_NAMES: ReadonlyMap<string, string> = new Map([
  ["@", "target"],
  ["<", "first_prerequisite"],
  ["^", "prerequisites"],
  ["+", "prerequisites"],
  ["?", "newer_prerequisites"],
  ["|", "order_only_prerequisites"],
  ["*", "stem"],
  ["%", "member"],
]);

/** What an unknown reference becomes: a word the shell would expand, named for the reader. */
function unknown(name: string): string {
  const automatic = PLACEHOLDER_NAMES.get(name.replace(/^(.)[DF]$/u, "$1"));
  if (automatic !== undefined) return `\${${automatic}}`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/u.test(name) ? `\${${name}}` : "${make_value}";
}

function refusedFunction(name: string): UnbindableCommandError {
  return new UnbindableCommandError(
    `a makefile make reads uses $(${name} …), which adds makefile text or code the harness cannot read, so it cannot be bound to an approval`,
  );
}

export class MakeVariables {
  readonly #definitions = new Map<string, Definition[]>();
  /** A definition whose name is itself unknown may have set any variable. */
  #anyName = false;

  constructor(
    readonly outside: MakeOutside,
    readonly hooks: ExpandHooks,
  ) {}

  define(name: string, definition: Definition): void {
    this.#definitions.set(name, [...(this.#definitions.get(name) ?? []), definition]);
  }

  /** A definition of a name the reader cannot tell: every variable is uncertain from then on. */
  defineUnknown(): void {
    this.#anyName = true;
  }

  definitions(): readonly (readonly [string, readonly Definition[]])[] {
    return [...this.#definitions];
  }

  /**
   * `text` with each reference make would expand at reading-order place `at` (Infinity: when a
   * recipe runs) replaced by its value, or by `${NAME}` where that is not certain; `$$` is `$`.
   */
  expand(text: string, at: number, automatic?: Automatic, seen: readonly string[] = []): string {
    let out = "";
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index] ?? "";
      if (char !== "$") {
        out += char;
        continue;
      }
      const next = text[index + 1];
      if (next === undefined) {
        out += "$";
        continue;
      }
      if (next === "$") {
        out += "$";
        index += 1;
        continue;
      }
      if (next !== "(" && next !== "{") {
        out += this.#reference(next, at, automatic, seen);
        index += 1;
        continue;
      }
      const close = closing(text, index + 1);
      if (close < 0) return `${out}\${make_value}`;
      out += this.#reference(text.slice(index + 2, close), at, automatic, seen);
      index = close;
    }
    return out;
  }

  #reference(
    inner: string,
    at: number,
    automatic: Automatic | undefined,
    seen: readonly string[],
  ): string {
    const call = /^([a-z-]+)[ \t]+(.*)$/su.exec(inner);
    if (call !== null && FUNCTIONS.has(call[1] ?? "")) {
      return this.#function(call[1] ?? "", call[2] ?? "", at, automatic, seen);
    }
    const substitution = /^([^:\s$]+):([^=]*)=(.*)$/su.exec(inner);
    if (substitution !== null) {
      const [, name = "", from = "", to = ""] = substitution;
      const value = this.#variable(name, at, automatic, seen);
      if (value.includes("$")) return unknown(name);
      return substituted(
        value,
        this.expand(from, at, automatic, seen),
        this.expand(to, at, automatic, seen),
      );
    }
    const name = this.expand(inner, at, automatic, seen);
    if (name.includes("$") || /\s/u.test(name)) return unknown(name);
    return this.#variable(name, at, automatic, seen);
  }

  #function(
    name: string,
    args: string,
    at: number,
    automatic: Automatic | undefined,
    seen: readonly string[],
  ): string {
    if (name === "eval" || name === "guile") throw refusedFunction(name);
    // Expanded for what it runs or refuses (`$(shell …)`, `$(eval …)` inside), whatever its use.
    const expanded = this.expand(args, at, automatic, seen);
    if (name === "shell") {
      this.hooks.shell(expanded);
      return unknown("shell");
    }
    if (name === "wildcard" && !expanded.includes("$")) return this.hooks.wildcard(expanded);
    return unknown(name);
  }

  /** One variable's value where make reads it (`at`), or `${NAME}` where it is not certain. */
  #variable(
    name: string,
    at: number,
    automatic: Automatic | undefined,
    seen: readonly string[],
  ): string {
    const fromRule = automatic?.get(name);
    if (fromRule !== undefined) return fromRule;
    if (PLACEHOLDER_NAMES.has(name.replace(/^(.)[DF]$/u, "$1"))) return unknown(name);
    if (seen.includes(name) || this.#anyName) return unknown(name);
    const within = [...seen, name];
    const definitions = (this.#definitions.get(name) ?? []).filter((each) => each.at < at);
    const [only] = definitions;
    const { commandLine, environment, mayHold } = this.outside;
    const overridden = definitions.some((each) => each.override);
    if (commandLine.has(name) && !overridden) {
      const value = commandLine.get(name);
      return value === undefined ? unknown(name) : this.expand(value, at, automatic, within);
    }
    const fromEnvironment = environment.has(name) || mayHold(name);
    if (only === undefined) {
      if (name === "CURDIR") return this.outside.curdir;
      if (environment.has(name)) return environment.get(name) ?? unknown(name);
      const builtin = BUILTIN_PROGRAMS.get(name);
      if (fromEnvironment || builtin === undefined || this.outside.noBuiltinVariables) {
        return unknown(name);
      }
      return builtin;
    }
    if (definitions.length > 1 || only.uncertain || ["+=", "!="].includes(only.operator)) {
      return unknown(name);
    }
    if (only.operator === "?=" || (this.outside.environmentOverrides && !overridden)) {
      if (environment.has(name)) return environment.get(name) ?? unknown(name);
      if (fromEnvironment) return unknown(name);
    }
    // `:=` was expanded where it stands; `=` and `?=` where they are used.
    const from = ["=", "?="].includes(only.operator) ? at : only.at;
    return this.expand(only.value, from, automatic, within);
  }
}

/** The index of the `)` or `}` that closes the one at `open`, counting only its own kind. */
function closing(text: string, open: number): number {
  const opener = text[open];
  const closer = opener === "(" ? ")" : "}";
  let depth = 0;
  for (let at = open; at < text.length; at += 1) {
    if (text[at] === opener) depth += 1;
    if (text[at] === closer) {
      depth -= 1;
      if (depth === 0) return at;
    }
  }
  return -1;
}

/** `$(VAR:.c=.o)` and `$(VAR:%.c=%.o)`, word by word, as patsubst does. */
function substituted(value: string, from: string, to: string): string {
  const pattern = from.includes("%") ? from : `%${from}`;
  const replacement = from.includes("%") ? to : `%${to}`;
  const [head = "", tail = ""] = pattern.split(/%(.*)/su);
  return value
    .split(/\s+/u)
    .filter(Boolean)
    .map((word) => {
      if (
        !word.startsWith(head) ||
        !word.endsWith(tail) ||
        word.length < head.length + tail.length
      ) {
        return word;
      }
      const stem = word.slice(head.length, word.length - tail.length);
      return replacement.replace("%", stem);
    })
    .join(" ");
}
