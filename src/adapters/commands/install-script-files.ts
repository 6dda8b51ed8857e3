/**
 * Which install-time script of the workspace's packages runs or names a file (core/policy/
 * install-scripts.ts): each package.json the loaded-later walk finds (the root's and the nested
 * ones, workspaces' packages among them, within its bounds), each of its install-time scripts
 * read by the command reader (command-reach.ts) from that package's folder, as npm runs it. One
 * hop: the files a script runs or names (and the npm scripts it runs), not what those import.
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { realpathSync } from "node:fs";
import { firstLineOfError } from "../../core/common/one-line.js";
import { INSTALL_TIME_SCRIPTS, type InstallScriptRun } from "../../core/policy/install-scripts.js";
import { reasonOutsideInstalledCode } from "../../core/policy/loaded-later-files.js";
import { loadedLaterEntries, whereItLeads } from "../filesystem/index.js";
import { commandTextFiles, NODE_ENTRY_ENDINGS, scriptsOf } from "./command-reach.js";
import { readProjectFile } from "./project-file.js";

/**
 * The install-time script that runs or names the file at `landing` (workspace-relative, where a
 * write lands, links followed), or undefined. Throws when the workspace cannot be looked through
 * (LoadedLaterScanError): the write is then asked about.
 */
export function installScriptRun(workspace: string, landing: string): InstallScriptRun | undefined {
  const root = realpathSync.native(workspace);
  const target = join(root, landing);
  for (const folder of packageFolders(root)) {
    const manifest = toSlashes(relative(root, join(folder, "package.json")));
    let text: string | undefined;
    try {
      text = readProjectFile(folder, "package.json");
    } catch (error) {
      // npm would read it (through a link, say) where the harness cannot: any script may be there.
      return { manifest, script: "scripts", unread: firstLineOfError(error) };
    }
    const scripts = text === undefined ? undefined : scriptsOrNone(text);
    for (const script of INSTALL_TIME_SCRIPTS) {
      const command = scripts?.[script];
      if (typeof command !== "string") continue;
      let files: readonly string[];
      let byWords = false;
      try {
        files = commandTextFiles(root, folder, command, (name) => readProjectFile(folder, name));
      } catch (error) {
        // A script the reader will not bind (`cd client && npm install`, `npx husky install`,
        // `eval`) still names its files in its words: each is taken as run, from the package's
        // folder and from every folder a `cd` names. Only one whose words the shell expands
        // (`$X`, a glob, a substitution) may run any file: that one is taken to run this one, and
        // the write is asked, rather than let through unasked.
        const named = wordsNamedFiles(root, folder, command);
        if (named === undefined) return { manifest, script, unread: firstLineOfError(error) };
        files = named;
        byWords = true;
      }
      if (files.some((file) => whereItLeads(join(root, file)) === target)) {
        return byWords ? { manifest, script, named: true } : { manifest, script };
      }
    }
  }
  return undefined;
}

/**
 * What no word scan can say: a command substitution (`$(cat list)`, backquotes), which may read
 * a file the model wrote, and a glob or brace in a word (`node scripts/*.js`), which matches one
 * it adds. A variable (`[ -n "$CI" ]`) is the person's environment's, not the workspace's.
 */
const UNKNOWABLE = /\$\(|`/u;
const PATTERN = /[*?{}]/u;

/**
 * Every workspace path a word of `text` may name (node's endings too: `node scripts/post` runs
 * scripts/post.js), from `folder` and from every folder a `cd` or `pushd` in it names; undefined
 * when a substitution or a pattern hides what it names.
 */
function wordsNamedFiles(root: string, folder: string, text: string): string[] | undefined {
  if (UNKNOWABLE.test(text)) return undefined;
  const words = text
    .split(/[\s;&|()<>'"=]+/u)
    .filter((word) => word !== "" && !word.startsWith("-") && !word.includes("$"));
  if (words.some((word) => PATTERN.test(word))) return undefined;
  const folders = [folder];
  for (const [at, word] of words.entries()) {
    const next = words[at + 1];
    if ((word === "cd" || word === "pushd") && next !== undefined) {
      folders.push(...folders.map((from) => resolve(from, next)));
    }
  }
  const files = new Set<string>();
  for (const word of words) {
    for (const from of folders) {
      const path = resolve(from, word);
      for (const candidate of [path, ...NODE_ENTRY_ENDINGS.map((ending) => `${path}${ending}`)]) {
        const inside = relative(root, candidate);
        if (inside !== "" && !inside.startsWith("..") && !isAbsolute(inside)) {
          files.add(toSlashes(inside));
        }
      }
    }
  }
  return [...files];
}

/** The folders holding a package.json the walk finds, each once, the root's first. */
function packageFolders(root: string): string[] {
  const folders = loadedLaterEntries(root, reasonOutsideInstalledCode)
    .filter((entry) => basename(entry.path).toLowerCase() === "package.json")
    .map((entry) => dirname(entry.path));
  return [...new Set(folders)];
}

/**
 * Its scripts; none when it is not JSON: npm stops on such a package.json and runs nothing of it,
 * and a project's fixtures often hold one on purpose.
 */
function scriptsOrNone(text: string): Readonly<Record<string, unknown>> | undefined {
  try {
    return scriptsOf(text);
  } catch {
    return undefined;
  }
}

function toSlashes(path: string): string {
  return path.split(sep).join("/");
}
