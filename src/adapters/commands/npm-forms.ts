/**
 * Which package-manager invocations the harness can bind to an approval. An approval of `npm
 * test` is worth something only if the digest covers all the code npm will run from the project;
 * the harness can say that code for exactly two forms: `npm test` and `npm run <name>`, each
 * optionally followed by `--` and arguments for the script (the arguments are in the digest, as
 * part of the call's input), and each perhaps choosing npm workspaces (`-w X`, `--workspace=X`,
 * `-ws`, `--include-workspace-root`), which npm-workspaces.ts resolves as npm does. Everything
 * else a package manager can be asked to do runs code the harness does not read (a dependency's
 * install scripts, a package fetched by `npx`) or lets a flag change what runs (`--prefix`,
 * `--script-shell=…`), so it is refused with a reason, never asked about as a command that runs
 * no script.
 */

export type PackageManagerForm =
  /** npm will run this script of the workspace's package.json, with its pre/post scripts. */
  | { readonly kind: "script"; readonly name: string }
  /** npm will run this script, with its hooks, in each npm workspace the flags select. */
  | { readonly kind: "workspaceScript"; readonly name: string; readonly select: WorkspaceFlags }
  /** A package-manager form whose code cannot be bound: why, in a person's words. */
  | { readonly kind: "unbindable"; readonly reason: string }
  /** Not a package manager: nothing here to bind (its argv is the whole action). */
  | { readonly kind: "other" };

/** npm's workspace flags, as npm's config reads them from the command line. */
export interface WorkspaceFlags {
  /** Each `-w X` / `--workspace X` / `--workspace=X`, in order. */
  readonly filters: readonly string[];
  /**
   * `-ws` / `--workspaces`: every workspace, when no filter is given. (Should npm one day read
   * `-ws` as `-w s`, it selects fewer of the workspaces bound, never another.)
   */
  readonly all: boolean;
  /** `--include-workspace-root`: the root package too. */
  readonly includeRoot: boolean;
}

/** Programs that run package.json scripts or packages; only npm's two plain forms are bound. */
const PACKAGE_RUNNERS = new Set([
  "npm",
  "npx",
  "pnpm",
  "pnpx",
  "yarn",
  "yarnpkg",
  "bun",
  "bunx",
  "corepack",
]);

const BOUND_FORMS =
  "only `npm test` and `npm run <name>` (optionally with `-w`/`--workspace`, `-ws` or `--include-workspace-root`, and followed by `--` and arguments for the script) are bound to what they run";

/** npm commands that install packages and so run their lifecycle scripts. */
const INSTALLS = new Set([
  "install",
  "i",
  "in",
  "ins",
  "inst",
  "insta",
  "instal",
  "isnt",
  "isnta",
  "isntal",
  "isntall",
  "add",
  "ci",
  "clean-install",
  "ic",
  "install-clean",
  "isntall-clean",
  "install-test",
  "it",
  "install-ci-test",
  "cit",
  "clean-install-test",
  "sit",
  "update",
  "up",
  "upgrade",
  "udpate",
  "rebuild",
  "rb",
  "link",
  "ln",
  "dedupe",
  "ddp",
]);

const EXECS = new Set(["exec", "x"]);

/** Whether `program` is a package manager (whose every form is bound or refused, never passed). */
export function isPackageRunner(program: string): boolean {
  return PACKAGE_RUNNERS.has(program);
}

export function packageManagerForm(argv: readonly string[]): PackageManagerForm {
  const [program = "", ...args] = argv;
  if (program === "node" && args.some((arg) => arg === "--run" || arg.startsWith("--run="))) {
    return unbindable(
      `\`node --run\` runs a package.json script the harness does not bind; ${BOUND_FORMS}`,
    );
  }
  if (!PACKAGE_RUNNERS.has(program)) return { kind: "other" };
  if (program !== "npm") {
    return unbindable(
      `${program} runs package scripts or fetched packages that the harness cannot show or bind to an approval; ${BOUND_FORMS}`,
    );
  }
  const split = args.indexOf("--");
  const own = split < 0 ? args : args.slice(0, split);
  const flags = workspaceFlags(own);
  const [command, name, ...more] = flags.rest;
  const script =
    command === "test" && name === undefined
      ? "test"
      : command === "run" && name !== undefined && !name.startsWith("-") && more.length === 0
        ? name
        : undefined;
  if (script === undefined || flags.unbindable !== undefined) {
    return unbindable(flags.unbindable ?? whyNot(flags.rest));
  }
  const { filters, all, includeRoot } = flags;
  if (filters.length === 0 && !all) {
    // Without -w or -ws npm runs the root's script alone; the flag would say otherwise.
    return includeRoot
      ? unbindable(
          `--include-workspace-root does nothing without -w or -ws, so the harness does not bind it; write npm ${flags.rest.join(" ")}`,
        )
      : { kind: "script", name: script };
  }
  return { kind: "workspaceScript", name: script, select: { filters, all, includeRoot } };
}

/**
 * The workspace flags among npm's own words (before `--`), wherever they stand, and the other
 * words. Only the spellings npm documents are taken (no `-w=X`, no `--works` abbreviation, no
 * value that starts with `-`): any other reads as a flag the harness does not bind.
 */
function workspaceFlags(own: readonly string[]): WorkspaceFlags & {
  readonly rest: readonly string[];
  readonly unbindable?: string;
} {
  const filters: string[] = [];
  const rest: string[] = [];
  let all = false;
  let includeRoot = false;
  for (let at = 0; at < own.length; at += 1) {
    const word = own[at] ?? "";
    if (word === "-ws" || word === "--workspaces") all = true;
    // (Not `-iwr`: npm warns that such single-hyphen words will be read as letters one day.)
    else if (word === "--include-workspace-root") includeRoot = true;
    else if (word.startsWith("--workspace=")) filters.push(word.slice("--workspace=".length));
    else if (word === "-w" || word === "--workspace") {
      at += 1;
      filters.push(own[at] ?? "");
    } else rest.push(word);
  }
  const empty = filters.find((filter) => filter === "" || filter.startsWith("-"));
  return {
    filters,
    all,
    includeRoot,
    rest,
    ...(empty === undefined
      ? {}
      : {
          unbindable: `npm's -w is given ${JSON.stringify(empty)}, not a workspace's name or folder, so the harness cannot say which workspace npm runs; write -w <name or folder>`,
        }),
  };
}

function whyNot(own: readonly string[]): string {
  const flag = own.find((word) => word.startsWith("-"));
  if (flag !== undefined) {
    return `npm flags such as ${JSON.stringify(flag)} can change which code npm runs (another folder, other workspaces, another shell or config), so the harness cannot bind it; ${BOUND_FORMS}`;
  }
  const [command = ""] = own;
  if (INSTALLS.has(command)) {
    return `\`npm ${command}\` runs the install scripts of the project and of every package it installs, code the harness cannot show or bind; ${BOUND_FORMS}`;
  }
  if (EXECS.has(command)) {
    return `\`npm ${command}\` runs a package's code, not a script the harness can show; ${BOUND_FORMS}`;
  }
  return `\`npm ${own.join(" ")}\` is not a form the harness can bind to what npm will run (write it as npm test or npm run <name>); ${BOUND_FORMS}`;
}

function unbindable(reason: string): PackageManagerForm {
  return { kind: "unbindable", reason };
}
