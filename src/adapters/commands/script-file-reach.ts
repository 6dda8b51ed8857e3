/**
 * Whether a script the host runs later (an install-time script, a git hook) runs or names a file
 * of the workspace: the command reader (command-reach.ts) says what it runs, as a grant would
 * bind it, and every word is taken as a file too. One hop: the files a script runs or names (and
 * the npm scripts it runs), not what those import.
 */
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { lstatSync } from "node:fs";
import { firstLineOfError } from "../../core/common/one-line.js";
import { LoaderVariableError } from "../../core/grants/unbindable-command.js";
import { whereItLeads } from "../filesystem/index.js";
import { commandTextFiles, NODE_ENTRY_ENDINGS } from "./command-reach.js";
import { isObject, mainIn, manifestOrNone, scriptNamed } from "./package-manifest.js";
import { readProjectFile } from "./project-file.js";

/**
 * How a script reaches the file written: it runs it (nothing more to say), only names it in a
 * word the reader would not bind, or cannot be read fully (it may then run any file).
 */
export type ScriptReach =
  Readonly<Record<string, never>> | { readonly named: true } | { readonly unread: string };

/**
 * How `command`, run from `folder`, reaches the file at `landing` (workspace-relative, where a
 * write lands, links followed; `root` the workspace's real path), or undefined when it does not.
 */
export function scriptReach(
  root: string,
  folder: string,
  command: string,
  landing: string,
): ScriptReach | undefined {
  const target = join(root, landing);
  let read: readonly string[] | undefined;
  let refusal: unknown;
  try {
    read = commandTextFiles(root, folder, command, (name) => readProjectFile(folder, name));
  } catch (error) {
    refusal = error;
  }
  // Every word is taken as a file too, from the script's folder and from every folder a `cd` or
  // `--prefix` names: code given inline (`node -e "require('./lib/setup')"`) names its files in
  // its words, and so does a script the reader will not bind (`cd client && npm install`, `npx
  // husky install`). Only one of those whose words a glob or a substitution hides may run any
  // file: this one is then taken as run, and the write is asked.
  const named = wordsNamedFiles(root, folder, command, 0);
  // A script that moves where programs are found (`export PATH=tools:$PATH`) may run any file.
  if (refusal instanceof LoaderVariableError) return { unread: firstLineOfError(refusal) };
  if (read === undefined && named === undefined) return { unread: firstLineOfError(refusal) };
  const lands = (file: string): boolean => landsOn(root, file, landing, target);
  if (read?.some(lands) === true) return {};
  if (named?.some(lands) === true) return { named: true };
  return undefined;
}

/**
 * What no word scan can say: a command substitution (`$(cat list)`, backquotes), which may read
 * a file the model wrote, and a glob or brace in a word (`node scripts/*.js`), which matches one
 * it adds; so is a variable in a path (`$DIR/x.js`). A variable alone (`[ -n "$CI" ]`) is the
 * person's environment's, not the workspace's.
 */
const UNKNOWABLE = /\$\(|`/u;
const PATTERN = /[*?{}]|\$.*\/|\/.*\$/u;
/** Folders a script may work from (`cd a && cd b`), at most: past it, what it names is unknown. */
const MAX_FOLDERS = 64;
/** `npm run X` read through to X's own text, this many scripts deep. */
const MAX_DEPTH = 3;
/** Words after which the next one is a folder the rest works from. */
const FOLDER_OPTIONS = new Set([
  "cd",
  "pushd",
  "--prefix",
  "-C",
  "--cwd",
  "--dir",
  "-w",
  "--workspace",
]);

/**
 * Every workspace path a word of `text` may name (node's endings too: `node scripts/post` runs
 * scripts/post.js; a dotted module, `python -m tools.setup`, its file), from `folder` and from
 * every folder a `cd` or `--prefix` in it names, and through `npm run X` to X's text in those
 * folders; undefined when a substitution or a pattern hides what it names.
 */
function wordsNamedFiles(
  root: string,
  folder: string,
  text: string,
  depth: number,
): string[] | undefined {
  if (UNKNOWABLE.test(text)) return undefined;
  const words = text
    .split(/[\s;&|()<>'"=,`]+/u)
    .map((word) => (/^-[A-Za-z]./u.test(word) && !word.startsWith("--") ? word.slice(2) : word))
    .filter((word) => word !== "" && !word.startsWith("-") && !/^\$\w+$/u.test(word));
  if (words.some((word) => PATTERN.test(word))) return undefined;
  const folders = new Set([folder]);
  const all = text.split(/[\s;&|()<>'"=]+/u);
  for (const [at, word] of all.entries()) {
    const next = all[at + 1];
    if (!FOLDER_OPTIONS.has(word) || next === undefined) continue;
    for (const from of [...folders]) folders.add(resolve(from, next));
    if (folders.size > MAX_FOLDERS) return undefined;
  }
  const files = new Set<string>();
  const add = (path: string): void => {
    const inside = relative(root, path);
    if (inside !== "" && inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)) {
      files.add(toSlashes(inside));
    }
  };
  for (const word of words) {
    const module = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/u.test(word)
      ? word.split(".").join("/")
      : undefined;
    for (const from of folders) {
      const path = resolve(from, word);
      add(path);
      for (const ending of NODE_ENTRY_ENDINGS) add(`${path}${ending}`);
      // `python -m setup` runs setup.py (or the package's __main__); `node .` the package's main.
      for (const ending of PYTHON_MODULE_ENDINGS) add(`${path}${ending}`);
      const main = word === "." ? mainIn(manifestOrNone(readOrNone(from))) : undefined;
      if (main !== undefined) {
        const entry = resolve(from, main);
        add(entry);
        for (const ending of NODE_ENTRY_ENDINGS) add(`${entry}${ending}`);
      }
      if (module !== undefined) {
        for (const ending of [".py", "/__init__.py", "/__main__.py"])
          add(resolve(from, `${module}${ending}`));
      }
    }
  }
  // `npm run gen`, `npm test` (or `npm --prefix tools run gen`): the script's own text and its
  // pre- and post- hooks, in each folder npm may run it in.
  if (depth < MAX_DEPTH) {
    for (const [at, word] of words.entries()) {
      const name = LIFECYCLE_NAMES.has(word)
        ? word
        : word === "run" || word === "run-script"
          ? words[at + 1]
          : undefined;
      if (name === undefined) continue;
      for (const from of folders) {
        const manifest = manifestOrNone(readOrNone(from));
        for (const hooked of [`pre${name}`, name, `post${name}`]) {
          const scriptText = scriptNamed(manifest, hooked);
          if (scriptText === undefined) continue;
          const more = wordsNamedFiles(
            root,
            from,
            withNpmVariables(scriptText, manifest, root, from),
            depth + 1,
          );
          if (more === undefined) return undefined;
          for (const file of more) files.add(file);
        }
      }
    }
  }
  return [...files];
}

const PYTHON_MODULE_ENDINGS = [".py", "/__init__.py", "/__main__.py"];

/** Script names npm runs by their own word (`npm test`, `npm start`). */
const LIFECYCLE_NAMES: ReadonlySet<string> = new Set(["test", "start", "stop", "restart"]);

/**
 * `$npm_package_config_hook`, `$npm_package_bin_setup`, `$npm_package_config_hooks_0`, `$PWD`,
 * `$INIT_CWD`: what npm gives them (it flattens the package.json into such variables).
 */
export function withNpmVariables(
  text: string,
  manifest: unknown,
  root: string,
  folder: string,
): string {
  const variables = new Map<string, string>();
  flatten(manifest, "npm_package", variables);
  return text.replace(/\$\{?(\w+)\}?/gu, (whole, name: string) => {
    if (name === "PWD" || name === "npm_config_local_prefix") return folder;
    if (name === "INIT_CWD") return root;
    return variables.get(name) ?? whole;
  });
}

function flatten(value: unknown, prefix: string, into: Map<string, string>): void {
  if (typeof value === "string" || typeof value === "number") {
    into.set(prefix, String(value));
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) flatten(item, `${prefix}_${String(index)}`, into);
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      flatten(item, `${prefix}_${key.replace(/\W/gu, "_")}`, into);
    }
  }
}

function readOrNone(folder: string): string | undefined {
  try {
    return readProjectFile(folder, "package.json");
  } catch {
    return undefined;
  }
}

/**
 * Whether `file` (workspace-relative) is where the write lands: by name, or through a link on the
 * way. Only a file of the same name, or a link, can lead there, so only those are resolved: a
 * script's words give hundreds of candidates. Names are compared without case: on a workspace
 * that ignores it (macOS, Windows, a FAT or NTFS mount) `Scripts/Setup.js`, not made yet, is the
 * `scripts/setup.js` a script runs, and no real path can say so before it exists.
 */
function landsOn(root: string, file: string, landing: string, target: string): boolean {
  if (file.toLowerCase() === landing.toLowerCase()) return true;
  const path = join(root, file);
  const sameName = basename(file).toLowerCase() === basename(landing).toLowerCase();
  return (sameName || isLink(path)) && whereItLeads(path).toLowerCase() === target.toLowerCase();
}

function isLink(path: string): boolean {
  try {
    // Most candidates are not there: no exception built for each (this runs at every write).
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false;
  }
}

export function toSlashes(path: string): string {
  return path.split(sep).join("/");
}
