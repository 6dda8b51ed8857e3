/**
 * What make's own words say about what it reads: the folder it works in (`-C`), the makefiles it
 * is given (`-f`), where it looks for an include (`-I`), the variables its command line sets
 * (`VAR=value`, which beat a makefile's own), and the options that change how it reads them.
 * Pure: make-reach.ts reads the files.
 */
import { isAbsolute, join } from "node:path";
import {
  LoaderVariableError,
  UnbindableCommandError,
} from "../../core/grants/unbindable-command.js";
import { MAKE_LOADER_VARIABLES } from "./loader-variables.js";

export const MAKE = /^g?make$/u;

/** One word of make's, and whether the shell expands it. */
export interface MakeWord {
  readonly word: string;
  readonly expands: boolean;
}

export interface MakeOptions {
  /** Where make reads its makefiles and runs its recipes, from the caller's folder ("" = there). */
  readonly directory: string;
  readonly files: readonly MakeWord[];
  readonly includeDirs: readonly string[];
  /** `VAR=value` words: a value of undefined is one the shell expands. */
  readonly commandLine: ReadonlyMap<string, string | undefined>;
  /** `-e`: the environment's values beat the makefiles'. */
  readonly environmentOverrides: boolean;
  /** `-R`: make defines none of its own variables (no `CC = cc`). */
  readonly noBuiltinVariables: boolean;
  /** `-r`: make uses none of its built-in implicit rules (`%: %.sh`). */
  readonly noBuiltinRules: boolean;
  /** The words that are neither options nor variables: the targets make is asked to build. */
  readonly goals: readonly MakeWord[];
}

export function makeEval(shown: string): UnbindableCommandError {
  return new UnbindableCommandError(
    `${shown} --eval adds makefile text the harness cannot bind to an approval; put it in a makefile`,
  );
}

export function makeOptions(
  args: readonly string[],
  expands: readonly boolean[],
  shown: string,
): MakeOptions {
  const files: MakeWord[] = [];
  const includeDirs: string[] = [];
  const commandLine = new Map<string, string | undefined>();
  let environmentOverrides = false;
  let noBuiltinVariables = false;
  let noBuiltinRules = false;
  const goals: MakeWord[] = [];
  let directory = "";
  const enter = (value: MakeWord): void => {
    if (value.expands) {
      throw new UnbindableCommandError(
        `${shown} -C is given ${JSON.stringify(value.word)}, a name the shell expands, so the harness cannot say which makefile it reads; name the folder plainly`,
      );
    }
    directory = isAbsolute(value.word) ? value.word : join(directory, value.word);
  };
  for (let at = 0; at < args.length; at += 1) {
    const word = args[at] ?? "";
    if (word === "--") break;
    const next = (): MakeWord => {
      at += 1;
      return { word: args[at] ?? "", expands: expands[at] === true };
    };
    if (word.startsWith("--")) {
      const equals = word.indexOf("=");
      const long = word.slice(2, equals < 0 ? undefined : equals);
      const value = (): MakeWord =>
        equals < 0 ? next() : { word: word.slice(equals + 1), expands: expands[at] === true };
      // Long options may be cut short while they stay unambiguous (`--dir`, `--file`, `--mak`).
      if (long.length >= 2 && "directory".startsWith(long)) enter(value());
      else if ("file".startsWith(long) || (long.length >= 3 && "makefile".startsWith(long))) {
        files.push(value());
      } else if (long.length >= 2 && "include-dir".startsWith(long)) {
        includeDirs.push(value().word);
      } else if (long.length >= 2 && "eval".startsWith(long)) {
        throw makeEval(shown);
      } else if (long.length >= 3 && "environment-overrides".startsWith(long)) {
        environmentOverrides = true;
      } else if (long.length >= 5 && "no-builtin-variables".startsWith(long)) {
        noBuiltinVariables = true;
      } else if (long.length >= 5 && "no-builtin-rules".startsWith(long)) {
        noBuiltinRules = true;
      }
      continue;
    }
    const assignment = /^([^\s=:?+!$]+)\s*(?:::?|:::|\?|\+|!)?=(.*)$/su.exec(word);
    if (assignment !== null && !word.startsWith("-")) {
      const [, name = "", value = ""] = assignment;
      // make passes its command line's variables to every recipe's environment.
      if (MAKE_LOADER_VARIABLES.has(name)) throw loaderVariable(shown, name, "command line");
      // `make MAKEFLAGS=--eval=…` gives make options as a makefile's MAKEFLAGS would.
      if (/^(?:GNU)?MAKEFLAGS$|^MFLAGS$/u.test(name)) {
        const loud = value.split(/\s+/u).find((flag) => flag !== "" && !QUIET_MAKEFLAGS.test(flag));
        if (expands[at] === true || loud !== undefined) {
          throw new UnbindableCommandError(
            `${shown} is given ${name}=${JSON.stringify(value)} on its command line, whose options may change what make reads or runs; give make's options as its own words`,
          );
        }
      }
      commandLine.set(name, expands[at] === true ? undefined : value);
      continue;
    }
    if (!/^-./u.test(word)) {
      goals.push({ word, expands: expands[at] === true });
      continue;
    }
    // A cluster of one-letter options (`-kC dir`, `-fbuild.mk`): the first that takes a value
    // takes the rest of the word, or the next word.
    for (let letter = 1; letter < word.length; letter += 1) {
      const option = word[letter] ?? "";
      if (option === "e") environmentOverrides = true;
      if (option === "R") noBuiltinVariables = true;
      if (option === "r") noBuiltinRules = true;
      if ("CfIoWE".includes(option)) {
        const rest = word.slice(letter + 1);
        const value = rest === "" ? next() : { word: rest, expands: expands[at] === true };
        // make reads its makefiles from the last -C's folder, wherever -f stood.
        if (option === "C") enter(value);
        if (option === "f") files.push(value);
        if (option === "I") includeDirs.push(value.word);
        if (option === "E") throw makeEval(shown);
        break;
      }
      if ("jlO".includes(option)) break;
    }
  }
  return {
    directory,
    files,
    includeDirs,
    commandLine,
    environmentOverrides,
    noBuiltinVariables,
    noBuiltinRules,
    goals,
  };
}

/** make is made to pass a variable that chooses which program or file its recipes run. */
/** What MAKEFLAGS may hold (a makefile's, or given on make's command line): options that change nothing of what runs. */
export const QUIET_MAKEFLAGS =
  /^(?:-?[rRsSkiw]+|-j\d*|--jobs(?:=\d+)?|--no-builtin-rules|--no-builtin-variables|--silent|--quiet|--keep-going|--no-keep-going|--(?:no-)?print-directory|--warn-undefined-variables)$/u;

export function loaderVariable(shown: string, name: string, where: string): LoaderVariableError {
  return new LoaderVariableError(
    `${shown}'s ${where} sets ${name}, which make passes to every recipe and which chooses which program or file it runs, so any file may run; leave ${name} unset in make`,
  );
}
