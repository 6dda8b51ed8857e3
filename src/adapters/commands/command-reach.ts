/**
 * Everything an allowed command will run that the workspace holds, said in words for the approval
 * and bound into its digest: the npm script and its `pre`/`post` hooks (in each npm workspace
 * `-w`/`-ws` selects, with the root package.json that names them), every npm script they
 * reach in turn (`npm test`, `npm run X`, `run-s X Y`, … recursively, each once), every file an
 * interpreter is given on the way (`node FILE`, `sh FILE`, `python -m MOD`, `pwsh -File FILE`, a
 * `./script` run by path, the modules `node -r` loads, and those `.npmrc`'s `node-options` and
 * `script-shell` name, the entry `node DIR` takes from DIR's package.json, the makefile `make`
 * reads), by content, and the workspace's `.npmrc` as npm parses it. Any other word of a command
 * (an argument, an `--opt=value`'s value, a `VAR=value` before it) that names a workspace file is
 * bound too, whatever the program makes of it. What cannot be said is refused:
 * UnbindableCommandError (`command_unbindable`) for a form that hides what it runs, NpmScriptError
 * (`script_unreadable`) for a file it runs that the harness cannot read as npm would.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  lstatSync,
  readdirSync,
  readlinkSync,
  type BigIntStats,
  type Stats,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { firstLineOfError } from "../../core/common/one-line.js";
import {
  LoaderVariableError,
  UnbindableCommandError,
} from "../../core/grants/unbindable-command.js";
import { errorCode, openRegularFileSync, readAtMostSync } from "../filesystem/index.js";
import { commandEnvironmentMayHold } from "../shell/index.js";
import { interpreterArgs, interpreterSpec } from "./interpreter-args.js";
import { MAKE } from "./make-options.js";
import { LOADER_VARIABLES } from "./loader-variables.js";
import { newMakeContext, readMake, type MakeContext, type MakeHost } from "./make-reach.js";
import { npmrcValues, redirectingNpmrcKey } from "./npm-config.js";
import { isPackageRunner, packageManagerForm, type WorkspaceFlags } from "./npm-forms.js";
import { NpmScriptError } from "./npm-script-error.js";
import { selectWorkspaces } from "./npm-workspaces.js";
import { mainIn, manifestOrNone, scriptsOf } from "./package-manifest.js";
import { simpleCommands, type SimpleCommand } from "./script-words.js";

/** Bound files are hashed, not shown; a bigger one is refused rather than bound in part. */
const MAX_BOUND_FILE_BYTES = 16 * 1024 * 1024;
/**
 * What one binding hashes at most in all. A file a word only names (not one a program is known to
 * run) beyond it, or beyond MAX_BOUND_FILE_BYTES, or one the harness may not read, is bound by
 * what lstat says of it (size, inode, change time: a write changes the change time), so a command
 * that names many or large files stays cheap and is never refused for them.
 */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;
/**
 * What a command's environment may hold where the caller does not say: the names every command
 * gets, on Linux, where the sandbox a binding needs runs. The run passes its own, with the names
 * of `--pass-env`.
 */
export const COMMAND_ENVIRONMENT_MAY_HOLD = (name: string): boolean =>
  commandEnvironmentMayHold(name, { passEnv: [], platform: "linux" });
/** Where a probe of an argv alone looks: a workspace that holds nothing (argvRefusal). */
const NOWHERE = resolve("/nonexistent-workspace");
/** What node and tsx try after a name that is not there, in their order (and tsx's TypeScript). */
export const NODE_ENTRY_ENDINGS = [
  ".js",
  ".json",
  ".node",
  ".mjs",
  ".cjs",
  ".ts",
  ".mts",
  ".cts",
  ".tsx",
  ".jsx",
  "/index.js",
  "/index.json",
  "/index.node",
  "/index.mjs",
  "/index.cjs",
  "/index.ts",
  "/index.mts",
  "/index.cts",
  "/index.tsx",
  "/index.jsx",
];
/** Programs that run npm scripts named in their arguments (npm-run-all and its short forms). */
const SCRIPT_RUNNERS = new Set(["npm-run-all", "npm-run-all2", "run-s", "run-p"]);
const RUNNER_FLAGS = new Set([
  "-s",
  "-p",
  "--serial",
  "--sequential",
  "--parallel",
  "-l",
  "--print-label",
  "-n",
  "--print-name",
  "-c",
  "--continue-on-error",
  "--silent",
  "-r",
  "--race",
  "--aggregate-output",
]);
/** Words the shell reads before the command it runs, skipped to find the program. */
const PREFIXES = new Set([
  "if",
  "then",
  "else",
  "elif",
  "do",
  "while",
  "until",
  "!",
  "{",
  "}",
  "time",
  "exec",
  "nohup",
  "command",
  "builtin",
  "cross-env",
  "cross-env-shell",
]);

class Reach {
  readonly rows: string[] = [];
  readonly #scriptsSeen = new Set<string>();
  /** Files bound as run (by content, or refused). */
  readonly #filesSeen = new Set<string>();
  /** Files bound as only named by a word (by content, link target or lstat). */
  readonly #namedSeen = new Set<string>();
  /** package.json's scripts, read when npm is first reached (null: not yet). */
  #scripts: Readonly<Record<string, unknown>> | undefined | null = null;
  /** The workspace's .npmrc, once npm is reached and it is there. */
  #npmrc: string | undefined;
  /** The top entries where the command runs, lower-cased (null: not read yet; undefined: unreadable). */
  #topNames: ReadonlySet<string> | undefined | null = null;
  /** Bytes hashed so far, shared with the reaches of make's recipes (MAX_HASHED_BYTES). */
  readonly #hashed: { bytes: number };
  /** Whether the environment a command starts with may hold a name (make takes values from it). */
  readonly environmentMayHold: (name: string) => boolean;
  /** What a make reached here inherits (from a make whose recipe this is) and the budget all share. */
  makeContext: MakeContext | undefined;
  /**
   * Every workspace file (workspace-relative, `/`-separated) the command runs, may run (each
   * name node would try) or names by a word, there now or not: what a write must not change
   * unasked when the command runs later (commandTextFiles).
   */
  readonly touched = new Set<string>();

  constructor(
    readonly workspace: string,
    readonly readProjectFile: (name: string) => string | undefined,
    /** A probe of the argv alone: every file is taken to be absent, none is read. */
    readonly nothingThere = false,
    /** Where the command runs, and its relative names start: the workspace, or a package in it. */
    readonly cwd: string = workspace,
    /** Each package and script run through npm's workspace flags, shared with the packages' reaches. */
    readonly workspaceRuns = new Set<string>(),
    shared: {
      readonly environmentMayHold?: (name: string) => boolean;
      readonly makeContext?: MakeContext;
      readonly hashed?: { bytes: number };
    } = {},
  ) {
    this.environmentMayHold = shared.environmentMayHold ?? COMMAND_ENVIRONMENT_MAY_HOLD;
    this.makeContext = shared.makeContext;
    this.#hashed = shared.hashed ?? { bytes: 0 };
  }

  /**
   * package.json's scripts, read the first time npm is reached, wherever that is (the allowed
   * argv, a script, `timeout 60 npm test`, `sh -c "npm run x"`); the .npmrc first, as npm reads it.
   */
  get scripts(): Readonly<Record<string, unknown>> | undefined {
    if (this.#scripts !== null) return this.#scripts;
    // Checked first: with `workspaces=true` npm runs other packages' scripts even when the root
    // package.json has none by that name.
    const npmrc = this.readProjectFile(".npmrc");
    const redirect = npmrc === undefined ? undefined : redirectingNpmrcKey(npmrc);
    if (redirect !== undefined) {
      throw new UnbindableCommandError(
        `the workspace's .npmrc sets ${JSON.stringify(redirect)}, which makes npm run code from other workspaces or folders that the harness does not bind; remove it from .npmrc to run npm here`,
      );
    }
    this.#npmrc = npmrc;
    const manifest = this.readProjectFile("package.json");
    this.#scripts = manifest === undefined ? undefined : scriptsOf(manifest);
    return this.#scripts;
  }

  /** What npm reads besides the scripts, bound once npm was reached: the .npmrc and its files. */
  npmSettings(): void {
    const npmrc = this.#npmrc;
    if (npmrc === undefined) return;
    this.rows.push(`under the workspace's .npmrc ${JSON.stringify(npmrc)}`);
    for (const shell of npmrcValues(npmrc, "script-shell")) {
      if (/[/\\]/u.test(shell)) this.file(shell, false, "npm's script-shell");
    }
    for (const options of npmrcValues(npmrc, "node-options")) {
      this.nodeOptions(options, "npm's node-options");
    }
  }

  /**
   * `npm test -w @mono/core`, `npm run build -ws`: the script, its hooks and what they run in
   * each package the flags select (npm-workspaces.ts), read in that package's folder with the
   * root's .npmrc (npm ignores a workspace's own), after the root package.json and the
   * workspaces it names now. npm resolves the flags from the folder it runs in, so only where
   * that is the workspace's top.
   */
  workspaceScripts(name: string, flags: WorkspaceFlags): void {
    if (this.cwd !== this.workspace) {
      throw new UnbindableCommandError(
        `a script of ${relative(this.workspace, this.cwd)} runs npm with workspace flags, which npm resolves from that folder, so the harness does not bind it; run the workspaces' scripts from the workspace's top`,
      );
    }
    if (this.nothingThere) return; // which packages run depends on the workspace: never refused
    const selection = selectWorkspaces(this.workspace, flags, this.readProjectFile);
    this.rows.push(...selection.rows);
    for (const chosen of selection.selected) {
      const run = `${chosen.folder}\0${name}`;
      if (this.workspaceRuns.has(run)) continue;
      this.workspaceRuns.add(run);
      const read = (file: string): string | undefined =>
        file === "package.json" ? chosen.packageJson : this.readProjectFile(file);
      const folder = join(this.workspace, chosen.folder);
      const reach = new Reach(this.workspace, read, false, folder, this.workspaceRuns);
      const text = reach.scripts?.[name];
      if (typeof text !== "string") {
        this.rows.push(`in ${chosen.shown}, whose package.json has no script ${name} now`);
        if (!reach.implicitScript(name)) continue;
      } else {
        this.rows.push(`in ${chosen.shown}`);
        reach.top(name, text);
      }
      reach.npmSettings();
      this.rows.push(...reach.rows);
      for (const file of reach.touched) this.touched.add(file);
    }
  }

  /** The script the allowed argv names: said plainly first, as requests always have. */
  top(name: string, text: string): void {
    this.#scriptsSeen.add(name);
    this.rows.push(`runs the script ${JSON.stringify(text)}`);
    this.hooksAndText(name, text);
  }

  /** A script reached through npm from another one: its text, hooks and what they run. */
  script(name: string, how: string): void {
    if (this.#scriptsSeen.has(name)) return;
    this.#scriptsSeen.add(name);
    const text = this.scripts?.[name];
    if (typeof text !== "string") {
      this.rows.push(`and ${how} the script ${name}, which package.json does not have now`);
      this.implicitScript(name);
      return;
    }
    this.rows.push(`and ${how} the script ${name} ${JSON.stringify(text)}`);
    this.hooksAndText(name, text);
  }

  /**
   * What npm runs for a script package.json does not have: for `start`, `node server.js` (when
   * server.js is there: bound whether it is or not, so making it asks again); for `restart`, the
   * stop and start scripts with their hooks. Says whether npm runs anything for `name`.
   */
  implicitScript(name: string): boolean {
    switch (name) {
      case "start":
        this.rows.push("and npm runs node server.js in its place, when server.js is there");
        this.shellText("node server.js");
        return true;
      case "restart":
        this.script("stop", "in its place npm runs");
        this.script("start", "then");
        return true;
      default:
        return false;
    }
  }

  /** The `pre`/`post` hooks npm runs around `name`, and what the three texts run. */
  hooksAndText(name: string, text: string): void {
    const around = [`pre${name}`, `post${name}`].flatMap((hook) => {
      const hookText = this.scripts?.[hook];
      return typeof hookText === "string" ? [[hook, hookText] as const] : [];
    });
    if (around.length > 0) {
      const said = around.map(([hook, hookText]) => `${hook} ${JSON.stringify(hookText)}`);
      this.rows.push(`and npm runs ${said.join(" and ")} around it`);
    }
    for (const [hook] of around) this.#scriptsSeen.add(hook);
    this.shellText(text);
    for (const [, hookText] of around) this.shellText(hookText);
  }

  /** Each simple command of a script (or of `sh -c TEXT`). */
  shellText(text: string): void {
    for (const command of simpleCommands(text)) this.command(command);
  }

  command(command: SimpleCommand): void {
    // What `<` feeds a program is what it reads, and an interpreter may run it (`sh /dev/stdin <
    // f.sh`, `tclsh < x.tcl`): bound by its content, as a file the program is given.
    for (const input of command.inputs) this.fed(input.word, input.expands);
    let at = 0;
    const { words, expands } = command;
    /** Reading env's own options (`env -i -u X node f.js`), which come before its command. */
    let envOptions = false;
    /** `VAR=x` before the program: what make takes from its environment (undefined: expanded). */
    const assigned = new Map<string, string | undefined>();
    for (; at < words.length; at += 1) {
      const word = words[at] ?? "";
      if (envOptions && word.startsWith("-") && word !== "-") {
        if (word === "--") {
          envOptions = false;
          continue;
        }
        const option = envOption(word);
        // `env -C DIR` runs the command in DIR, where its names lead elsewhere.
        if (option.kind === "chdir") throw changesDirectory("env -C");
        if (option.kind === "split") {
          // `env -S 'sh f.sh' x`: the string is split into the command, the words after it join it.
          const text = option.value ?? words[at + 1] ?? "";
          const after = words.slice(at + (option.value === undefined ? 2 : 1));
          this.shellText([text, ...after].join(" "));
          return;
        }
        // `-u NAME`: the name is env's, not the command's first word.
        if (option.kind === "takesValue" && option.value === undefined) at += 1;
        continue;
      }
      envOptions = false;
      const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/su.exec(word);
      if (assignment !== null) {
        const [, variable = "", value = ""] = assignment;
        assigned.set(variable, expands[at] === true ? undefined : value);
        if (variable.toUpperCase() === "NODE_OPTIONS") {
          this.nodeOptions(value, "NODE_OPTIONS");
        } else if (LOADER_VARIABLES.has(variable)) {
          throw setsLoaderVariable(variable);
        } else if (expands[at] !== true) {
          // `BASH_ENV=f.sh`, `MAKEFILES="a.mk b.mk"`: a file the value names is bound.
          for (const named of new Set([value, ...value.split(/\s+/u)])) this.named(named, variable);
        }
        continue;
      }
      if (word === "env" && words.length > at + 1) {
        envOptions = true;
        continue;
      }
      if (PREFIXES.has(word)) continue;
      if (word.startsWith("-") && at > 0 && ["command", "nohup"].includes(words[at - 1] ?? "")) {
        continue;
      }
      break;
    }
    const rest = words.slice(at);
    const [program, ...args] = rest;
    if (program === undefined) return;
    if (expands[at] === true) {
      throw new UnbindableCommandError(
        `the script runs a program whose name the shell expands (${JSON.stringify(program)}), which hides what it runs from the harness, so it cannot be bound to an approval; name the program plainly`,
      );
    }
    if (["eval", "case", "function", "select", "coproc", "trap"].includes(program)) {
      throw runsUnreadCommands(program);
    }
    if (program === "for") return; // its words are data; its body is the next command
    refuseLoaderChange(program, args);
    if (["cd", "pushd", "popd", "unshare", "nsenter", "chroot"].includes(basename(program))) {
      throw changesDirectory(basename(program));
    }
    if (program === "." || program === "source") {
      this.file(args[0], expands[at + 1] === true, program);
      return;
    }
    this.argv(rest, expands.slice(at), assigned);
  }

  /** An argv about to run (the allowed one itself, or a command of a script). */
  argv(
    argv: readonly string[],
    expands: readonly boolean[] = [],
    assigned: ReadonlyMap<string, string | undefined> = new Map(),
  ): void {
    const [program = "", ...args] = argv;
    const form = packageManagerForm(argv);
    switch (form.kind) {
      case "unbindable":
        throw new UnbindableCommandError(form.reason);
      case "script":
        this.script(form.name, `through npm`);
        return;
      case "workspaceScript":
        this.workspaceScripts(form.name, form.select);
        return;
      case "other":
        break;
    }
    const name = basename(program);
    if (name === "xargs") throw runsUnreadCommands(name);
    const runsOnFound = args.find((arg) => /^-(exec|execdir|ok|okdir)$/u.test(arg));
    if (name === "find" && runsOnFound !== undefined) throw runsOnFiles(runsOnFound);
    if (SCRIPT_RUNNERS.has(name)) {
      this.scriptRunner(name, args);
      return;
    }
    const spec = interpreterSpec(program);
    if (spec !== undefined) {
      const given = interpreterArgs(program, spec, args);
      const shown = basename(program);
      if (given.fromStdin === true) {
        throw new UnbindableCommandError(
          `${shown} is given no file or code of its own, so it runs what reaches its stdin (a redirect or a pipe), which the harness cannot bind to an approval; give it the file by name`,
        );
      }
      const addsExtensions = spec === interpreterSpec("node");
      if (given.file !== undefined) {
        // A word the shell expands before the file may change which file runs (`node $OPTS x.js`);
        // one after it is the program's own argument (`node x.js --out=dist/*.js`).
        const at = args.indexOf(given.file);
        const fileExpands = expands.slice(1, at < 0 ? undefined : at + 2).some(Boolean);
        // `python DIR` runs DIR/__main__.py.
        const directory =
          spec === interpreterSpec("python") && !fileExpands
            ? this.#directoryInside(given.file)
            : undefined;
        if (directory === undefined) this.entry(given.file, fileExpands, shown, addsExtensions);
        else this.file(join(directory, "__main__.py"), false, shown);
      }
      for (const load of given.loads) this.entry(load, false, shown, addsExtensions);
      if (given.module !== undefined) this.pythonModule(given.module, shown);
      // `node --test`'s words are its test files, directories or patterns: the files there are
      // bound like any named file; the rest, like a test runner's (`vitest run`), are its own.
      for (const other of given.others) this.named(other, shown);
      if (given.shellText !== undefined) this.shellText(given.shellText);
      return;
    }
    if (MAKE.test(name)) this.make(args, expands.slice(1), name, assigned);
    // cargo builds and runs the crate's build script (and the build its manifest names) first.
    if (name === "cargo") {
      this.file("Cargo.toml", false, name);
      this.file("build.rs", false, name);
    }
    // A program named by a path runs that file; a workspace file is bound like a script's.
    if (/[/\\]/u.test(program)) this.file(program, expands[0] === true, "the shell");
    // A program that runs the rest of its words as a command (`timeout 60 bash f.sh`, `nice`,
    // `setsid`, `stdbuf -oL`, `env -u X node f.js`, `flock LOCK npm test`): whatever options of
    // its own come first, the command from the first word that runs workspace code is bound as
    // if it stood alone. A word that only looks like one (`grep -r npm .`) binds more, never less.
    const nested = args.findIndex(startsWorkspaceCode);
    if (nested >= 0) {
      // …unless xargs or find -exec stands before it: they run it on words read elsewhere.
      const before = args.slice(0, nested).map((word) => basename(word));
      if (before.includes("xargs")) throw runsUnreadCommands("xargs");
      if (before.includes("find") && runsOnFound !== undefined) throw runsOnFiles(runsOnFound);
      this.argv(args.slice(nested), expands.slice(nested + 1), assigned);
    }
    // So may any workspace file named among its words (`timeout 60 ./f.sh`, `pytest
    // tests/test_a.py`, `awk -f prog.awk`, `--config=f.js`): bound, whatever the program makes of it.
    for (const [index, arg] of args.entries()) {
      if (expands[index + 1] === true) continue;
      for (const word of namedWords(arg)) this.named(word, name);
    }
    // Command text given to another program (`concurrently "npm run a"`, `env -S "sh f.sh"`, a
    // git alias's `!sh f.sh`) is read as a script from the word that starts workspace code.
    for (const arg of [program, ...args]) {
      const npmShort = /^npm:(.+)$/u.exec(arg);
      if (npmShort !== null) this.script(npmShort[1] ?? "", `through ${name}`);
      if (!/\S\s+\S/u.test(arg)) continue;
      const tokens = arg
        .trim()
        .split(/\s+/u)
        .map((token) => token.replace(/^.*[=!]/u, ""));
      const from = tokens.findIndex(startsWorkspaceCode);
      if (from >= 0) this.shellText(tokens.slice(from).join(" "));
    }
  }

  /**
   * `make`: what it reads and runs (make-reach.ts), its recipes read by this reader in make's
   * folder, with the `VAR=x` the command sets before it.
   */
  make(
    args: readonly string[],
    expands: readonly boolean[],
    shown: string,
    assigned: ReadonlyMap<string, string | undefined>,
  ): void {
    this.makeContext ??= newMakeContext(this.environmentMayHold);
    readMake(this.#makeHost(), args, expands, shown, this.makeContext, assigned);
  }

  #makeHost(): MakeHost {
    return {
      cwd: this.cwd,
      bind: (path, expands, shown) => {
        this.file(path, expands, shown);
      },
      exists: (path) => this.#lstat(this.#resolve(path)) !== undefined,
      builtin: (name, sources, present) => {
        this.#builtinSources(name, sources, present);
      },
      text: (path) => {
        const inside = this.inside(path);
        if (inside === undefined) return undefined; // outside, the workspace holds nothing
        try {
          return this.#bytes(inside.path)?.toString("utf8");
        } catch {
          return undefined; // bound just now by content: only a race gets here
        }
      },
      list: (path) => {
        const folder = this.#directoryInside(path);
        if (folder === undefined) return undefined;
        try {
          return readdirSync(folder);
        } catch {
          return undefined;
        }
      },
      runner: (directory, inherited) => {
        // npm in a recipe run elsewhere reads that folder's package.json, which this reach does not.
        const read =
          directory === this.cwd
            ? this.readProjectFile
            : (): never => {
                throw new UnbindableCommandError(
                  `make runs npm in ${relative(this.workspace, directory)}, where npm reads that folder's package.json, which the harness does not bind; run the npm script from the workspace's top`,
                );
              };
        const reach = new Reach(
          this.workspace,
          read,
          this.nothingThere,
          directory,
          this.workspaceRuns,
          {
            environmentMayHold: inherited.mayHold,
            makeContext: inherited,
            hashed: this.#hashed,
          },
        );
        return (text) => {
          const rows = reach.rows.length;
          reach.shellText(text);
          this.rows.push(...reach.rows.slice(rows));
          for (const file of reach.touched) this.touched.add(file);
        };
      },
    };
  }

  /**
   * make's built-in rules may build `name` from `sources`: each is touched (a write of one later
   * is a write of what runs), and one row binds those there now by name and content, in one
   * digest, so a source created, changed or removed later changes the binding.
   */
  #builtinSources(name: string, sources: readonly string[], present: readonly string[]): void {
    for (const source of sources) {
      const inside = this.inside(source);
      if (inside !== undefined) this.touched.add(inside.relative);
    }
    const hash = createHash("sha256");
    const shown: string[] = [];
    for (const source of present) {
      const inside = this.inside(source);
      if (inside === undefined) continue;
      const digest = this.#digest(inside.relative, "make", inside.path) ?? "not there";
      hash.update(`${inside.relative}\0${digest}\n`);
      shown.push(inside.relative);
    }
    if (shown.length === 0) return; // a row appears when one is created
    const target = this.inside(name)?.relative ?? name;
    this.rows.push(
      `and make's built-in rules may build ${target} from ${shown.join(", ")} (sha256 ${hash.digest("hex")})`,
    );
  }

  /** `run-s a b:*`: each name, or each script a `*` pattern matches. */
  scriptRunner(name: string, args: readonly string[]): void {
    for (const arg of args) {
      if (arg === "--") return;
      if (arg.startsWith("-")) {
        if (RUNNER_FLAGS.has(arg)) continue;
        throw new UnbindableCommandError(
          `${name} ${arg} can change which scripts or which npm run, so the harness cannot bind it; use plain script names`,
        );
      }
      const pattern = arg.split(" ")[0] ?? "";
      if (!pattern.includes("*")) {
        this.script(pattern, `through ${name}`);
        continue;
      }
      const source = pattern
        .split("**")
        .map((part) =>
          part
            .split("*")
            .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/gu, "\\$&"))
            .join("[^:]*"),
        )
        .join(".*");
      const matcher = new RegExp(`^${source}$`, "u");
      for (const script of Object.keys(this.scripts ?? {}).sort()) {
        if (matcher.test(script)) this.script(script, `through ${name}`);
      }
    }
  }

  /** `.npmrc`'s `node-options`, or `NODE_OPTIONS=` before a command: the modules it loads. */
  nodeOptions(text: string, shown: string): void {
    const spec = interpreterSpec("node");
    if (spec === undefined) return;
    const given = interpreterArgs("node", spec, text.split(/\s+/u).filter(Boolean));
    for (const load of [...given.loads, ...(given.file === undefined ? [] : [given.file])]) {
      this.file(load, false, shown);
    }
  }

  /** `python -m a.b`: a workspace file by that name (`a/b.py`, `a/b/__main__.py`, …) runs. */
  pythonModule(module: string, shown: string): void {
    const path = module.replaceAll(".", "/");
    for (const candidate of [`${path}.py`, `${path}/__main__.py`, `${path}/__init__.py`]) {
      this.runIfThere(candidate, shown);
    }
  }

  /**
   * A file an interpreter runs or loads. Node (and tsx) add an extension to a name that is not
   * there (`node scripts/f` runs `scripts/f.js`): each file it would take is bound as well, so
   * one written later makes the binding differ.
   */
  entry(word: string, expands: boolean, shown: string, addsExtensions: boolean): void {
    const directory = addsExtensions && !expands ? this.#directoryInside(word) : undefined;
    if (directory !== undefined) {
      this.nodeDirectory(directory, shown);
      return;
    }
    this.file(word, expands, shown);
    const inside = this.inside(word);
    if (!addsExtensions || inside === undefined || this.#lstat(inside.path) !== undefined) return;
    for (const ending of NODE_ENTRY_ENDINGS) this.runIfThere(`${word}${ending}`, shown);
  }

  /**
   * `node DIR` (`node .`): node resolves DIR, tries DIR.js (and the other endings) first, then
   * DIR/package.json's `main` (as a file, with the endings, as a directory's index), then
   * DIR/index.js and the like. Each file it would take that is there now is bound, with the
   * package.json; one written later makes the binding differ.
   */
  nodeDirectory(directory: string, shown: string): void {
    const [siblings, indexes] = [
      NODE_ENTRY_ENDINGS.filter((ending) => !ending.startsWith("/")),
      NODE_ENTRY_ENDINGS.filter((ending) => ending.startsWith("/")),
    ];
    for (const ending of siblings) this.runIfThere(`${directory}${ending}`, shown);
    const manifest = join(directory, "package.json");
    this.runIfThere(manifest, shown);
    const main = this.#mainOf(manifest);
    if (main !== undefined) {
      const entry = resolve(directory, main);
      this.runIfThere(entry, shown);
      for (const ending of NODE_ENTRY_ENDINGS) this.runIfThere(`${entry}${ending}`, shown);
    }
    for (const ending of indexes) this.runIfThere(`${directory}${ending}`, shown);
  }

  /** A file a program may run: bound when it is a workspace file (or link) now. */
  runIfThere(word: string, shown: string): void {
    const inside = this.inside(word);
    if (inside === undefined) return;
    this.touched.add(inside.relative);
    const stats = this.#lstat(inside.path);
    if (stats === undefined || (!stats.isFile() && !stats.isSymbolicLink())) return;
    this.file(word, false, shown);
  }

  /**
   * A word that may name a workspace file the program reads (data, a config, a program for awk or
   * deno, …): a regular file is bound by content (or, over the limits or unreadable, by what
   * lstat says of it), a link by where it points and, when that is in the workspace, by that too.
   * It never refuses: a word that names nothing, a directory or a FIFO binds nothing.
   */
  named(word: string, shown: string): void {
    if (word === "" || word === "." || word === "..") return;
    // `/proc/self/cwd/f.awk` is the workspace's f.awk under another name, `awk -f /dev/fd/3` what
    // a descriptor holds: a path binds neither.
    if (DESCRIPTOR_ALIAS.test(this.#resolve(word)))
      refuseSystemView(this.#resolve(word), shown, word);
    const inside = this.inside(word);
    if (inside === undefined) return;
    this.touched.add(inside.relative);
    if (!/[/\\]/u.test(word)) {
      // Cheap for any number of words: a plain name is looked up among the top entries first.
      const names = this.#names();
      if (names !== undefined && !names.has(word.toLowerCase())) return;
    }
    if (this.#filesSeen.has(inside.relative) || this.#namedSeen.has(inside.relative)) return;
    const stats = this.#lstat(inside.path);
    if (stats === undefined) return;
    if (stats.isSymbolicLink()) {
      let target: string;
      try {
        target = readlinkSync(inside.path);
      } catch {
        return; // gone since: nothing there
      }
      this.#namedSeen.add(inside.relative);
      this.rows.push(
        `and ${shown} is given ${inside.relative}, a symbolic link to ${JSON.stringify(target)}`,
      );
      this.named(resolve(dirname(inside.path), target), shown);
      return;
    }
    if (!stats.isFile()) return;
    this.#namedSeen.add(inside.relative);
    let digest: string | undefined;
    if (stats.size <= MAX_BOUND_FILE_BYTES && this.#hashed.bytes + stats.size <= MAX_HASHED_BYTES) {
      try {
        digest = this.#sha256(inside.path);
      } catch {
        digest = undefined; // unreadable or grown past the limit: bound by lstat below
      }
    }
    if (digest !== undefined) {
      this.rows.push(`and ${shown} is given ${inside.relative} (sha256 ${digest})`);
      return;
    }
    let big: BigIntStats;
    try {
      big = lstatSync(inside.path, { bigint: true });
    } catch {
      return;
    }
    this.rows.push(
      `and ${shown} is given ${inside.relative} (not hashed: ${String(big.size)} bytes, inode ${String(big.ino)}, changed ${String(big.ctimeNs)} ns)`,
    );
  }

  /**
   * A file `<` feeds a command: bound by its content (by lstat when large) as a named file is, by
   * its absence when it is not there, and refused only where the name is an alias the system
   * resolves (`/dev/stdin`, `/dev/fd/3`, `/proc/self/cwd/f`); `/dev/urandom` holds no file here.
   */
  fed(word: string, expands: boolean): void {
    const shown = "a command's stdin";
    if (expands) this.file(word, true, shown);
    if (DESCRIPTOR_ALIAS.test(this.#resolve(word)))
      refuseSystemView(this.#resolve(word), shown, word);
    const inside = this.inside(word);
    if (inside === undefined) return;
    if (this.#lstat(inside.path) === undefined) this.file(word, false, shown);
    else this.named(word, shown);
  }

  /** A file the command will run: bound by its content, or by its absence. */
  file(word: string | undefined, expands: boolean, shown: string): void {
    if (word === undefined || word === "") return;
    if (expands) {
      throw new UnbindableCommandError(
        `${shown} is given ${JSON.stringify(word)}, a name the shell expands, so the harness cannot say which file runs; name the file plainly`,
      );
    }
    refuseSystemView(this.#resolve(word), shown, word);
    const inside = this.inside(word);
    if (inside === undefined) return;
    this.touched.add(inside.relative);
    if (this.#filesSeen.has(inside.relative)) return;
    this.#filesSeen.add(inside.relative);
    const digest = this.#digest(inside.relative, shown, inside.path);
    this.rows.push(
      digest === undefined
        ? `and ${shown} is given ${inside.relative}, which is not there now`
        : `and ${shown} is given ${inside.relative} (sha256 ${digest})`,
    );
  }

  /** Where a word lands, when it is inside the workspace (outside, the workspace holds nothing). */
  inside(word: string): { path: string; relative: string } | undefined {
    const path = this.#resolve(word);
    const relativePath = relative(this.workspace, path);
    if (relativePath === "" || !isWithin(relativePath)) return undefined;
    return { path, relative: relativePath.split(sep).join("/") };
  }

  #resolve(word: string): string {
    // `--import file:///ws/hook.mjs`: a file URL names the file it points at.
    if (word.startsWith("file:")) {
      try {
        return fileURLToPath(word);
      } catch {
        // not a file URL node would take either: read as a name, as any other word
      }
    }
    return resolve(this.cwd, word.replace(/^~(?=\/|$)/u, "/nonexistent-home"));
  }

  /** The directory a word names, the workspace itself (`.`) included, when it is one now. */
  #directoryInside(word: string): string | undefined {
    const path = this.#resolve(word);
    const relativePath = relative(this.workspace, path);
    if (relativePath !== "" && !isWithin(relativePath)) return undefined;
    return this.#lstat(path)?.isDirectory() === true ? path : undefined;
  }

  #lstat(path: string): Stats | undefined {
    if (this.nothingThere) return undefined;
    try {
      return lstatSync(path);
    } catch {
      return undefined;
    }
  }

  #names(): ReadonlySet<string> | undefined {
    if (this.#topNames === null) {
      try {
        const names = this.nothingThere ? [] : readdirSync(this.cwd);
        this.#topNames = new Set(names.map((name) => name.toLowerCase()));
      } catch {
        this.#topNames = undefined; // each word is looked up on its own
      }
    }
    return this.#topNames;
  }

  /** package.json's `main`, when it has one node would read (else undefined). */
  #mainOf(manifest: string): string | undefined {
    try {
      const bytes = this.#bytes(manifest);
      // node stops on one that is not JSON; its content is bound as it is
      return bytes === undefined ? undefined : mainIn(manifestOrNone(bytes.toString("utf8")));
    } catch {
      return undefined;
    }
  }

  /** A file that will run: its sha256, undefined when it is not there, or the refusal. */
  #digest(shownPath: string, shown: string, path: string): string | undefined {
    try {
      return this.#sha256(path);
    } catch (error) {
      throw new NpmScriptError(
        error instanceof OverLimitError
          ? `${shown} would run the workspace's ${shownPath}, which is over the limit the harness reads to bind it`
          : `${shown} would run the workspace's ${shownPath}, and the harness cannot read it to bind it: ${firstLineOfError(error)}`,
      );
    }
  }

  /** The file's sha256; undefined when nothing is there; throws when it cannot be read whole. */
  #sha256(path: string): string | undefined {
    const bytes = this.#bytes(path);
    if (bytes === undefined) return undefined;
    this.#hashed.bytes += bytes.length;
    return createHash("sha256").update(bytes).digest("hex");
  }

  /** The file's bytes, read as a small regular file; undefined when nothing is there. */
  #bytes(path: string): Buffer | undefined {
    if (this.nothingThere) return undefined;
    let fd: number;
    try {
      fd = openRegularFileSync(path, constants.O_RDONLY).handle;
    } catch (error) {
      if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return undefined;
      throw error;
    }
    try {
      const bytes = readAtMostSync(fd, MAX_BOUND_FILE_BYTES);
      if (bytes === undefined) throw new OverLimitError();
      return bytes;
    } finally {
      closeSync(fd);
    }
  }
}

class OverLimitError extends Error {
  override readonly name = "OverLimitError";
}

/** Whether a relative path stays inside (not `..`, not another root). */
function isWithin(relativePath: string): boolean {
  return !(
    relativePath === ".." ||
    relativePath.startsWith(`..${sep}`) ||
    isAbsolute(relativePath)
  );
}

/** The words of an argument that may name a file: itself, an `=`'s value, `-fFILE`'s FILE. */
function namedWords(arg: string): string[] {
  const equals = arg.indexOf("=");
  if (arg.startsWith("-")) {
    if (equals >= 0) return [arg.slice(equals + 1)];
    return /^-[A-Za-z0-9]./u.test(arg) ? [arg.slice(2)] : [];
  }
  return equals > 0 ? [arg, arg.slice(equals + 1)] : [arg];
}

/**
 * Whether `word` starts a command whose code the workspace may hold: a package manager, a script
 * runner, an interpreter, make.
 */
function startsWorkspaceCode(word: string): boolean {
  const name = basename(word);
  return (
    isPackageRunner(word) ||
    SCRIPT_RUNNERS.has(name) ||
    MAKE.test(name) ||
    interpreterSpec(word) !== undefined
  );
}

function runsUnreadCommands(program: string): UnbindableCommandError {
  return new UnbindableCommandError(
    `the script uses ${program}, which runs commands the harness cannot read from its text, so it cannot be bound to an approval; write it as plain commands`,
  );
}

function runsOnFiles(option: string): UnbindableCommandError {
  return new UnbindableCommandError(
    `find ${option} runs commands on the files it finds, which the harness cannot read from its text, so it cannot be bound to an approval`,
  );
}

/**
 * `/dev/stdin`, `/dev/fd/3`, `/proc/self/cwd/f.sh`: names the system maps to another file (what a
 * descriptor holds, the process's own view of the workspace), which a path cannot bind.
 * `/dev/null` holds nothing.
 */
type EnvOption =
  | { readonly kind: "chdir" }
  | { readonly kind: "split"; readonly value: string | undefined }
  | { readonly kind: "takesValue"; readonly value: string | undefined }
  | { readonly kind: "flag" };

/**
 * One of env's own options, as GNU env reads it: a long one may be cut short while it stays
 * unambiguous (`--ch` is `--chdir`), short ones cluster (`-iC DIR`, `-iu NAME`), and a value is the
 * rest of the word or the next word.
 */
function envOption(word: string): EnvOption {
  if (word.startsWith("--")) {
    const equals = word.indexOf("=");
    const name = word.slice(0, equals < 0 ? undefined : equals);
    const value = equals < 0 ? undefined : word.slice(equals + 1);
    const is = (long: string): boolean => name.length >= 3 && long.startsWith(name);
    if (is("--chdir")) return { kind: "chdir" };
    if (is("--split-string")) return { kind: "split", value };
    if (is("--unset") || is("--argv0")) return { kind: "takesValue", value };
    // `--block-signal[=SIG]`, `--default-signal[=SIG]`, `--ignore-signal[=SIG]`: a value only after
    // `=`; the next word is the command.
    return { kind: "flag" };
  }
  for (let letter = 1; letter < word.length; letter += 1) {
    const rest = word.slice(letter + 1);
    const value = rest === "" ? undefined : rest;
    const letterOf = word[letter];
    if (letterOf === "C") return { kind: "chdir" };
    if (letterOf === "S") return { kind: "split", value };
    if (letterOf === "u" || letterOf === "a") return { kind: "takesValue", value };
  }
  return { kind: "flag" };
}

function setsLoaderVariable(variable: string): LoaderVariableError {
  return new LoaderVariableError(
    `the command sets ${variable}, which makes a program find its code (or itself) in folders the harness does not bind; run it without ${variable}`,
  );
}

/** Shell builtins that set a variable for the rest of the script, or what a name runs. */
const DECLARING = new Set(["export", "declare", "typeset", "local", "readonly"]);

/**
 * `export PATH=bin:$PATH` (then `lint`) changes what every later command of the script runs, as
 * `PATH=… lint` does for one; so do `hash -p FILE NAME` (NAME runs FILE) and `enable -f` (a
 * builtin loaded from a library).
 */
function refuseLoaderChange(program: string, args: readonly string[]): void {
  if (DECLARING.has(program)) {
    for (const arg of args) {
      const variable = /^([A-Za-z_][A-Za-z0-9_]*)(?:\+?=|$)/u.exec(arg)?.[1];
      if (variable !== undefined && LOADER_VARIABLES.has(variable)) {
        throw setsLoaderVariable(variable);
      }
    }
  }
  if (
    (program === "hash" && args.some((arg) => /^-[a-z]*p/u.test(arg))) ||
    (program === "enable" && args.some((arg) => /^-[a-z]*f/u.test(arg)))
  ) {
    throw new LoaderVariableError(
      `the script runs ${program} ${args.join(" ")}, which changes which program a name runs, so the harness cannot say what runs; leave it out`,
    );
  }
}

/** Names the system resolves to another file: a descriptor's, or the process's folders. */
const DESCRIPTOR_ALIAS = /^\/dev\/(?:stdin|fd(?:\/|$))|^\/proc\/[^/]+\/(?:fd|cwd|root)(?:\/|$)/u;

function refuseSystemView(path: string, shown: string, word: string): void {
  if (path === "/dev/null" || !/^\/(?:dev|proc)(?:\/|$)/u.test(path)) return;
  throw new UnbindableCommandError(
    `${shown} is given ${JSON.stringify(word)}, which the system maps to another file (a descriptor, or the process's own view of the folders), so the harness cannot say which file runs; name the file plainly`,
  );
}

function changesDirectory(how: string): UnbindableCommandError {
  return new UnbindableCommandError(
    `the command changes directory (${how}), after which the harness cannot tell which workspace files its paths name, so it cannot be bound to an approval; name the files from the workspace's top`,
  );
}

/**
 * What an allowed argv runs that the workspace holds, in words (one row for each thing run), read
 * now; undefined when it runs nothing of the workspace's (no package.json or no such script for npm, a
 * program given no workspace file).
 */
export function commandReachRows(
  workspace: string,
  argv: readonly string[],
  readProjectFile: (name: string) => string | undefined,
  environmentMayHold: (name: string) => boolean = COMMAND_ENVIRONMENT_MAY_HOLD,
): readonly string[] | undefined {
  const reach = new Reach(workspace, readProjectFile, false, workspace, new Set(), {
    environmentMayHold,
  });
  return argvRows(reach, argv);
}

function argvRows(reach: Reach, argv: readonly string[]): readonly string[] | undefined {
  const form = packageManagerForm(argv);
  switch (form.kind) {
    case "unbindable":
      throw new UnbindableCommandError(form.reason);
    case "other":
      reach.argv(argv);
      break;
    case "workspaceScript":
      reach.workspaceScripts(form.name, form.select);
      break;
    case "script": {
      const script = reach.scripts?.[form.name];
      if (typeof script === "string") reach.top(form.name, script);
      else if (!reach.implicitScript(form.name)) return undefined;
      break;
    }
  }
  reach.npmSettings();
  return reach.rows.length === 0 ? undefined : reach.rows;
}

/**
 * What a shell command's text runs that the workspace holds, read as a script's text is (each
 * simple command of `./f.sh | tail -5`, `npm test && echo ok`, `NODE_OPTIONS=… node t.js`);
 * undefined when nothing. A text that is one npm script form alone (`npm test`) is bound as the
 * argv is, from the script's own row. A form that hides what it runs throws
 * UnbindableCommandError.
 */
export function commandTextReachRows(
  workspace: string,
  text: string,
  readProjectFile: (name: string) => string | undefined,
  environmentMayHold: (name: string) => boolean = COMMAND_ENVIRONMENT_MAY_HOLD,
): readonly string[] | undefined {
  const reach = new Reach(workspace, readProjectFile, false, workspace, new Set(), {
    environmentMayHold,
  });
  const commands = simpleCommands(text);
  const [only] = commands;
  if (
    commands.length === 1 &&
    only !== undefined &&
    !only.expands.some(Boolean) &&
    ["script", "workspaceScript"].includes(packageManagerForm(only.words).kind)
  ) {
    return argvRows(reach, only.words);
  }
  for (const command of commands) reach.command(command);
  reach.npmSettings();
  return reach.rows.length === 0 ? undefined : reach.rows;
}

/**
 * The workspace files (workspace-relative, `/`-separated) that a script's text, run in `cwd` (the
 * workspace or a package folder in it), runs, may run or names, there now or not: the same
 * reading as commandTextReachRows, each npm script it reaches through npm included. Throws as
 * that does where the text hides what it runs (UnbindableCommandError) or a file it runs cannot
 * be read (NpmScriptError).
 */
export function commandTextFiles(
  workspace: string,
  cwd: string,
  text: string,
  readProjectFile: (name: string) => string | undefined,
): readonly string[] {
  const reach = new Reach(workspace, readProjectFile, false, cwd);
  for (const command of simpleCommands(text)) reach.command(command);
  reach.npmSettings();
  return [...reach.touched];
}

/**
 * Why an argv is refused whatever the workspace holds (`["node"]`, `["sh","-c","eval $X"]`,
 * `["npx","eslint"]`), or undefined when it may be bound: read as if every file were absent, so
 * only what the argv itself says can refuse it. An allowlist entry refused so can never run.
 */
export function argvRefusal(argv: readonly string[]): string | undefined {
  try {
    argvRows(new Reach(NOWHERE, () => undefined, true), argv);
    return undefined;
  } catch (error) {
    return error instanceof UnbindableCommandError ? error.message : undefined;
  }
}
