/**
 * Which words of an interpreter's argv name code it will load: the file it is given (`node FILE`,
 * `python FILE`, `sh FILE`, `pwsh -File FILE`, `perl FILE`, `ruby FILE`), the modules an option
 * makes it load first (`node -r X`, `--import X`), and the inline code it runs (`sh -c TEXT`,
 * which is a script of its own). `node --test` finds its test files itself (its words are files,
 * directories or patterns), and `-` as the file means stdin. Pure: the caller reads the files
 * (command-reach.ts).
 */
import { basename } from "node:path";
import { UnbindableCommandError } from "../../core/grants/unbindable-command.js";

export interface InterpreterArgs {
  /** The file the interpreter runs (its "position"), when it is given one. */
  readonly file?: string;
  /** Files an option makes it load besides (`-r`, `--import`, `--rcfile`, …). */
  readonly loads: readonly string[];
  /** Every other argument word: a file among them is bound too (over-binding is harmless). */
  readonly others: readonly string[];
  /** Shell text it runs inline (`sh -c TEXT`, `pwsh -Command TEXT`): another script to read. */
  readonly shellText?: string;
  /** Python's `-m NAME`: the module it runs, which may be a workspace file. */
  readonly module?: string;
  /** Given no file, code or module: it reads its program from stdin (`sh < f.sh`, `… | node`). */
  readonly fromStdin?: true;
  /**
   * `node --test`: it runs the test files it finds (under the directory, or those its words name,
   * each in `others`), never its stdin, like any other test runner.
   */
  readonly runsTests?: true;
}

interface InterpreterSpec {
  /** Options followed by a value that is not a file. */
  readonly values: ReadonlySet<string>;
  /** Options followed by a file it loads. */
  readonly loads: ReadonlySet<string>;
  /** Options followed by inline code in the interpreter's own language (bound as argv text). */
  readonly code: ReadonlySet<string>;
  /** Options followed by inline shell text, read as a script. */
  readonly shell: ReadonlySet<string>;
  /** Options that say the file comes next (`pwsh -File`). */
  readonly fileNext: ReadonlySet<string>;
  /** Options that make it run from elsewhere or run code the harness cannot read. */
  readonly refused: ReadonlySet<string>;
  readonly module: ReadonlySet<string>;
  /** Options that make it a test runner whose words are test files, directories or patterns. */
  readonly tests: ReadonlySet<string>;
  /** Option names compared case-blind, `/x` taken as `-x` (PowerShell). */
  readonly caseBlind: boolean;
}

const none: ReadonlySet<string> = new Set();
const set = (...names: string[]): ReadonlySet<string> => new Set(names);

const NODE: InterpreterSpec = {
  values: set(
    "-C",
    "--conditions",
    "--input-type",
    "--title",
    "--inspect-port",
    "--test-reporter",
    "--test-reporter-destination",
    "--test-name-pattern",
    "--test-skip-pattern",
    "--test-concurrency",
    "--test-timeout",
    "--test-shard",
    "--test-isolation",
    "--test-coverage-include",
    "--test-coverage-exclude",
    "--test-coverage-branches",
    "--test-coverage-functions",
    "--test-coverage-lines",
    "--watch-path",
    "--stack-size",
    "--max-old-space-size",
    "--max-semi-space-size",
    "--disable-warning",
    "--experimental-default-type",
    "--unhandled-rejections",
    "--dns-result-order",
    "--redirect-warnings",
    "--diagnostic-dir",
    "--report-dir",
    "--report-directory",
    "--report-filename",
    "--report-signal",
    "--heapsnapshot-signal",
    "--heap-prof-dir",
    "--heap-prof-name",
    "--cpu-prof-dir",
    "--cpu-prof-name",
    "--icu-data-dir",
    "--openssl-config",
    "--secure-heap",
    "--secure-heap-min",
    "--localstorage-file",
    "--snapshot-blob",
    "--trace-event-categories",
    "--trace-event-file-pattern",
    "--allow-fs-read",
    "--allow-fs-write",
    "--watch-kill-signal",
  ),
  loads: set(
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--env-file",
    "--env-file-if-exists",
    "--test-global-setup",
    "--experimental-config-file",
  ),
  code: set("-e", "--eval", "-p", "--print"),
  shell: none,
  fileNext: none,
  refused: none,
  module: none,
  tests: set("--test"),
  caseBlind: false,
};

const PYTHON: InterpreterSpec = {
  values: set("-W", "-X", "-Q"),
  loads: none,
  code: set("-c"),
  shell: none,
  fileNext: none,
  refused: none,
  module: set("-m"),
  tests: none,
  caseBlind: false,
};

const SHELL: InterpreterSpec = {
  values: set("-o", "+o", "-O", "+O"),
  loads: set("--rcfile", "--init-file"),
  code: none,
  shell: set("-c"),
  fileNext: none,
  refused: none,
  module: none,
  tests: none,
  caseBlind: false,
};

const POWERSHELL: InterpreterSpec = {
  values: set(
    "-executionpolicy",
    "-ex",
    "-ep",
    "-inputformat",
    "-inf",
    "-if",
    "-outputformat",
    "-of",
    "-o",
    "-windowstyle",
    "-w",
    "-configurationname",
    "-config",
    "-custompipename",
  ),
  loads: set("-settingsfile"),
  code: none,
  shell: set("-command", "-c"),
  fileNext: set("-file", "-f"),
  refused: set(
    "-encodedcommand",
    "-e",
    "-ec",
    "-workingdirectory",
    "-wd",
    "-commandwithargs",
    "-cwa",
  ),
  module: none,
  tests: none,
  caseBlind: true,
};

const PERL: InterpreterSpec = {
  values: none,
  loads: none,
  code: set("-e", "-E"),
  shell: none,
  fileNext: none,
  refused: none,
  module: none,
  tests: none,
  caseBlind: false,
};

const RUBY: InterpreterSpec = {
  values: set("-I", "-E", "--encoding"),
  loads: set("-r", "--require"),
  code: set("-e"),
  shell: none,
  fileNext: none,
  refused: set("-C"),
  module: none,
  tests: none,
  caseBlind: false,
};

/** The interpreter a program name is, by its base name (`/usr/bin/python3.12` is python). */
export function interpreterSpec(program: string): InterpreterSpec | undefined {
  const name = basename(program.replaceAll("\\", "/"))
    .toLowerCase()
    .replace(/\.exe$/u, "");
  if (/^(node|nodejs|tsx|ts-node)$/u.test(name)) return NODE;
  if (/^python[0-9.]*$/u.test(name)) return PYTHON;
  if (/^(sh|bash|dash|zsh|ksh|mksh|ash|busybox-sh)$/u.test(name)) return SHELL;
  if (/^(pwsh|pwsh-preview|powershell)$/u.test(name)) return POWERSHELL;
  if (/^perl[0-9.]*$/u.test(name)) return PERL;
  if (/^ruby[0-9.]*$/u.test(name)) return RUBY;
  return undefined;
}

/** The code-bearing words of `args` given to an interpreter of this kind. */
export function interpreterArgs(
  program: string,
  spec: InterpreterSpec,
  args: readonly string[],
): InterpreterArgs {
  const loads: string[] = [];
  const others: string[] = [];
  let tests = false;
  /** The words from `at` on are the program's: its file first, unless it is a test runner. */
  const positional = (at: number): InterpreterArgs => {
    const [file, ...rest] = args.slice(at);
    if (tests) return { loads, others: [...others, ...args.slice(at)], runsTests: true };
    // `-` as the file is stdin (`node -`, `python -`, `sh -`).
    if (file === undefined || file === "-") return { loads, others, fromStdin: true };
    return { file, loads, others: [...others, ...rest] };
  };
  for (let at = 0; at < args.length; at += 1) {
    const word = args[at] ?? "";
    if (word === "--") return positional(at + 1);
    if (!/^[-+]./u.test(word) && !(spec.caseBlind && /^\/[A-Za-z]/u.test(word))) {
      return positional(at);
    }
    const equals = word.indexOf("=");
    const raw = equals < 0 ? word : word.slice(0, equals);
    const name = spec.caseBlind ? `-${raw.replace(/^(--|-|\/)/u, "").toLowerCase()}` : raw;
    const attached = equals < 0 ? undefined : word.slice(equals + 1);
    const value = (): string => {
      if (attached !== undefined) return attached;
      at += 1;
      return args[at] ?? "";
    };
    if (spec.refused.has(name)) {
      throw new UnbindableCommandError(
        `${program} ${word} runs code from a place or in a form the harness cannot read, so it cannot be bound to an approval`,
      );
    }
    // A cluster of one-letter shell options with `c` in it (`sh -ec TEXT`) is `-c`.
    const shellCluster = spec.shell.has("-c") && /^-[A-Za-z]*c[A-Za-z]*$/u.test(word);
    if (spec.shell.has(name) || shellCluster) {
      return { loads, others: [...others, ...args.slice(at + 2)], shellText: value() };
    }
    if (spec.code.has(name)) {
      value();
      return { loads, others: [...others, ...args.slice(at + 1)] };
    }
    if (spec.module.has(name)) {
      return { loads, others: [...others, ...args.slice(at + 2)], module: value() };
    }
    if (spec.fileNext.has(name)) {
      const file = value();
      return { file, loads, others: [...others, ...args.slice(at + 1)] };
    }
    if (spec.tests.has(name)) tests = true;
    else if (spec.loads.has(name)) loads.push(value());
    else if (spec.values.has(name)) others.push(value());
    else if (attached !== undefined) others.push(attached);
  }
  // `node --test` finds its own files; `node --version` prints and exits; anything else given no
  // program reads one from stdin.
  if (tests) return positional(args.length);
  const printsOnly = args.some((word) => INFO_OPTIONS.has(word));
  return printsOnly ? { loads, others } : { loads, others, fromStdin: true };
}

/** Options with which an interpreter says something about itself and runs nothing. */
const INFO_OPTIONS: ReadonlySet<string> = new Set([
  "--version",
  "-v",
  "-V",
  "--help",
  "-h",
  "--v8-options",
  "--completion-bash",
]);
