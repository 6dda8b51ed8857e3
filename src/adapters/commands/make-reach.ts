/**
 * What `make` reads that the workspace holds: the makefiles it reads (`-f`, else the first of
 * GNUmakefile, makefile, Makefile, in the `-C` folder) and the makefiles they include by plain
 * name (from there and the `-I` folders), each bound by content.
 */
import { isAbsolute, join, resolve } from "node:path";
import { UnbindableCommandError } from "../../core/grants/unbindable-command.js";
import { makeOptions } from "./make-options.js";

/** The makefiles GNU make reads when it is given none, in its order: the first there is read. */
const DEFAULT_MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];

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
}

/**
 * `make`: the makefiles `-f` names, else the one it picks of GNUmakefile, makefile, Makefile
 * (those before it bound as absent: one written later is read instead). `-C DIR` (each one
 * from the last) is where make reads them: `make -C docs html` binds docs/Makefile.
 */
export function readMake(
  host: MakeHost,
  args: readonly string[],
  expands: readonly boolean[],
  shown: string,
): void {
  const { directory, files, includeDirs } = makeOptions(args, expands, shown);
  const from = (word: string): string => (isAbsolute(word) ? word : join(directory, word));
  const included = (word: string): string[] =>
    isAbsolute(word) ? [word] : [from(word), ...includeDirs.map((dir) => join(from(dir), word))];
  const read = new Set<string>();
  for (const file of files) {
    if (file.word === "-") {
      throw new UnbindableCommandError(
        `${shown} -f - reads its makefile from stdin (a redirect or a pipe), which the harness cannot bind to an approval; give it the file by name`,
      );
    }
    host.bind(file.expands ? file.word : from(file.word), file.expands, shown);
    if (!file.expands) makeIncludes(host, from(file.word), included, shown, read);
  }
  if (files.length > 0) return;
  for (const makefile of DEFAULT_MAKEFILES) {
    host.bind(from(makefile), false, shown);
    if (host.exists(from(makefile))) {
      makeIncludes(host, from(makefile), included, shown, read);
      return;
    }
  }
}

/**
 * The makefiles a makefile includes by plain name (`include rules.mk`, `-include local.mk`, over
 * continued lines), from make's folder and each `-I` folder, each bound like the makefile and
 * read for its own includes, so a recipe added there asks again. An include make expands from a
 * variable (`-include $(OBJS:.o=.d)`) names generated files and is left out; one it expands as a
 * pattern (`include rules/*.mk`) matches files a command may add, and is refused.
 */
function makeIncludes(
  host: MakeHost,
  makefile: string,
  candidates: (word: string) => string[],
  shown: string,
  read: Set<string>,
): void {
  read.add(resolve(host.cwd, makefile));
  const text = host.text(makefile) ?? "";
  const lines = text.replace(/\\\r?\n/gu, " ");
  for (const match of lines.matchAll(/^[ \t]*-?s?include[ \t]+(.+)$/gmu)) {
    for (const word of (match[1] ?? "").split(/\s+/u)) {
      if (word === "" || word.includes("$")) continue;
      if (/[*?[]/u.test(word)) {
        throw new UnbindableCommandError(
          `${shown}'s ${makefile} includes ${JSON.stringify(word)}, a pattern make matches against the files there, so the harness cannot say which makefiles it reads; include them by name`,
        );
      }
      for (const path of candidates(word)) {
        if (read.has(resolve(host.cwd, path))) continue;
        host.bind(path, false, shown);
        makeIncludes(host, path, candidates, shown, read);
      }
    }
  }
}
