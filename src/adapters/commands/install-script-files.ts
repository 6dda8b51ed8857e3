/**
 * Which install-time script of the workspace's packages runs or names a file (core/policy/
 * install-scripts.ts): each package.json the loaded-later walk finds (the root's and the nested
 * ones, workspaces' packages among them, within its bounds), each of its install-time scripts
 * read by the command reader (command-reach.ts) from that package's folder, as npm runs it. One
 * hop: the files a script runs or names (and the npm scripts it runs), not what those import.
 */
import { basename, dirname, join, relative, sep } from "node:path";
import { realpathSync } from "node:fs";
import { firstLineOfError } from "../../core/common/one-line.js";
import { INSTALL_TIME_SCRIPTS, type InstallScriptRun } from "../../core/policy/install-scripts.js";
import { reasonOutsideInstalledCode } from "../../core/policy/loaded-later-files.js";
import { loadedLaterEntries, whereItLeads } from "../filesystem/index.js";
import { commandTextFiles, scriptsOf } from "./command-reach.js";
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
      try {
        files = commandTextFiles(root, folder, command, (name) => readProjectFile(folder, name));
      } catch (error) {
        // A script the reader cannot read fully (`cd`, `eval`, a program the shell expands, a
        // file it runs that cannot be read) may run any file: taking it to run none would let
        // the write through unasked, so it is taken to run this one, and the write is asked.
        return { manifest, script, unread: firstLineOfError(error) };
      }
      if (files.some((file) => whereItLeads(join(root, file)) === target)) {
        return { manifest, script };
      }
    }
  }
  return undefined;
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
