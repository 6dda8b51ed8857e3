/**
 * Which install-time script of the workspace's packages runs or names a file (core/policy/
 * install-scripts.ts): each package.json the loaded-later walk finds (the root's and the nested
 * ones, workspaces' packages among them, within its bounds), each of its install-time scripts
 * read from that package's folder, as npm runs it (script-file-reach.ts).
 */
import { basename, dirname, join, relative } from "node:path";
import { realpathSync } from "node:fs";
import { firstLineOfError } from "../../core/common/one-line.js";
import { INSTALL_TIME_SCRIPTS, type InstallScriptRun } from "../../core/policy/install-scripts.js";
import { reasonOutsideInstalledCode } from "../../core/policy/loaded-later-files.js";
import { loadedLaterPlaces } from "../filesystem/index.js";
import { manifestOrNone, scriptsIn } from "./package-manifest.js";
import { readProjectFile } from "./project-file.js";
import { scriptReach, toSlashes, withNpmVariables } from "./script-file-reach.js";

/**
 * The install-time script that runs or names the file at `landing` (workspace-relative, where a
 * write lands, links followed), or undefined. Throws when the workspace cannot be looked through
 * (LoadedLaterScanError): the write is then asked about.
 */
export function installScriptRun(workspace: string, landing: string): InstallScriptRun | undefined {
  const root = realpathSync.native(workspace);
  for (const folder of packageFolders(root)) {
    const manifest = toSlashes(relative(root, join(folder, "package.json")));
    const kind = "install-script";
    let text: string | undefined;
    try {
      text = readProjectFile(folder, "package.json");
    } catch (error) {
      // npm would read it (through a link, say) where the harness cannot: any script may be there.
      return { kind, manifest, script: "scripts", unread: firstLineOfError(error) };
    }
    // npm stops on one that is not JSON and runs nothing of it (a fixture's, often on purpose).
    const manifestJson = manifestOrNone(text);
    const scripts = scriptsIn(manifestJson);
    for (const script of INSTALL_TIME_SCRIPTS) {
      const written = scripts?.[script];
      if (typeof written !== "string") continue;
      // npm sets these for the script: what they hold is the package's, not the person's.
      const command = withNpmVariables(written, manifestJson, root, folder);
      const reach = scriptReach(root, folder, command, landing);
      if (reach !== undefined) return { kind, manifest, script, ...reach };
    }
  }
  return undefined;
}

/** The folders holding a package.json the walk finds, each once, the root's first. */
function packageFolders(root: string): string[] {
  const folders = loadedLaterPlaces(root, reasonOutsideInstalledCode)
    .filter((entry) => basename(entry.path).toLowerCase() === "package.json")
    .map((entry) => dirname(entry.path));
  return [...new Set(folders)];
}
