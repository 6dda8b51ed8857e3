/**
 * Which packages `npm run X -w A`, `--workspace=A`, `-ws` and `--include-workspace-root` run X
 * in, found as npm finds them (@npmcli/map-workspaces, then npm's get-workspaces): the root
 * package.json's `workspaces` (an array, or `{ packages: [...] }`) expanded to folders
 * (workspace-globs.ts); each folder holding a package.json is a workspace, named by its `name`
 * (else by its folder, as npm names it); a filter selects a workspace by that name, by its
 * folder, or as the folder just above it (`-w packages` selects each workspace directly in
 * packages/). Where npm would stop (no workspace selected, two workspaces of one name, a
 * `workspaces` it cannot read), or a filter is a pattern, the command is refused.
 */
import { createHash } from "node:crypto";
import { basename, dirname, relative, resolve, sep } from "node:path";
import { UnbindableCommandError } from "../../core/grants/unbindable-command.js";
import type { WorkspaceFlags } from "./npm-forms.js";
import { NpmScriptError } from "./npm-script-error.js";
import { isObject, manifestJson } from "./package-manifest.js";
import { readProjectFile } from "./project-file.js";
import { workspacePatternFolders } from "./workspace-globs.js";

/** A package npm runs the script in. */
export interface SelectedPackage {
  /** How the binding names it: `"@mono/core" (packages/core)`, or the root package. */
  readonly shown: string;
  /** Its folder, workspace-relative and `/`-separated ("" for the root package). */
  readonly folder: string;
  /** Its package.json as read to find it, so its scripts are the ones its name was read from. */
  readonly packageJson: string;
}

export interface WorkspaceSelection {
  /** What decided the selection: the root package.json and the workspaces it names now. */
  readonly rows: readonly string[];
  /** The packages npm runs the script in, in its order. */
  readonly selected: readonly SelectedPackage[];
}

/** Characters that make a filter a pattern to npm's minimatch rather than a name or a path. */
const FILTER_MAGIC = /[*?[\]{}()!\\]/u;

/**
 * The packages the flags select in the workspace's npm project, read with `readProjectFile`
 * (workspace-relative names, never through a link). Throws UnbindableCommandError where the
 * selection cannot be said exactly, NpmScriptError where a package.json cannot be read as npm
 * reads it.
 */
export function selectWorkspaces(
  workspace: string,
  flags: WorkspaceFlags,
  readProjectFile: (name: string) => string | undefined,
): WorkspaceSelection {
  const rootText = readProjectFile("package.json");
  if (rootText === undefined) {
    throw new UnbindableCommandError(
      "npm is asked for workspaces, and the workspace has no package.json to name them, so npm runs nothing; run npm test or npm run <name> without -w",
    );
  }
  const root = parsed(rootText, "package.json");
  const found = workspacesOf(workspace, root, readProjectFile);
  const chosen = new Map<unknown, SelectedPackage>();
  if (flags.includeRoot) {
    chosen.set(root.name, { shown: "the root package", folder: "", packageJson: rootText });
  }
  // As npm: -ws means every workspace only when no -w names some.
  if (flags.filters.length === 0) for (const one of found) chosen.set(one.name, one);
  for (const filter of flags.filters) {
    for (const one of found) if (selects(workspace, filter, one)) chosen.set(one.name, one);
  }
  const names = found.map((one) => one.shown).join(", ");
  if (chosen.size === 0) {
    const asked = flags.filters.map((filter) => JSON.stringify(filter)).join(", ");
    throw new UnbindableCommandError(
      found.length === 0
        ? "package.json names no npm workspace now, so npm runs nothing; run npm test or npm run <name> without -w"
        : `no npm workspace is ${asked} (package.json's workspaces are ${names}), so npm runs nothing; give -w a workspace's name or folder`,
    );
  }
  const digest = createHash("sha256").update(rootText).digest("hex");
  return {
    rows: [`npm finds the workspaces ${names} from package.json (sha256 ${digest})`],
    selected: [...chosen.values()],
  };
}

interface FoundWorkspace extends SelectedPackage {
  readonly name: string;
}

/** Every workspace npm finds, in its order; two of one name refuse (npm stops on them too). */
function workspacesOf(
  workspace: string,
  root: Readonly<Record<string, unknown>>,
  readProjectFile: (name: string) => string | undefined,
): FoundWorkspace[] {
  const folders = workspacePatternFolders(workspace, patternsOf(root.workspaces));
  const byName = new Map<string, FoundWorkspace>();
  for (const folder of folders) {
    const packageJson = readProjectFile(`${folder}/package.json`);
    if (packageJson === undefined) continue; // not a package: npm passes it by
    const name = nameOf(parsed(packageJson, `${folder}/package.json`).name, folder);
    const other = byName.get(name);
    if (other !== undefined) {
      throw new UnbindableCommandError(
        `two npm workspaces are named ${JSON.stringify(name)} (${other.folder} and ${folder}), which npm refuses, so it runs nothing; give each workspace its own name`,
      );
    }
    byName.set(name, { name, folder, packageJson, shown: `${JSON.stringify(name)} (${folder})` });
  }
  return [...byName.values()];
}

/**
 * The folders the root package.json's `workspaces` name now (workspace-relative), whatever they
 * hold; none where the harness cannot read or expand them. For watching, not for binding: a
 * package's own `node_modules/.bin` comes first on PATH when npm runs its scripts (`-w`).
 */
export function npmWorkspaceFolders(workspace: string): readonly string[] {
  try {
    const text = readProjectFile(workspace, "package.json");
    if (text === undefined) return [];
    return workspacePatternFolders(workspace, patternsOf(parsed(text, "package.json").workspaces));
  } catch {
    return [];
  }
}

/** `workspaces` as npm reads it: absent is none, an array, or `{ packages: [...] }`. */
function patternsOf(declared: unknown): readonly string[] {
  if (declared === undefined) return [];
  const list = isObject(declared) ? declared.packages : declared;
  if (Array.isArray(list) && list.every((pattern) => typeof pattern === "string")) return list;
  throw new UnbindableCommandError(
    "package.json's workspaces is not a list of folder patterns (nor { packages: [...] } of them), which npm cannot read, so it runs nothing; fix package.json's workspaces",
  );
}

/** A workspace's name as npm takes it: its package.json's, else its folder's (`@scope/pkg`). */
function nameOf(declared: unknown, folder: string): string {
  if (typeof declared === "string" && declared !== "") return declared;
  if (declared === undefined || declared === null || declared === "" || declared === false) {
    const parent = basename(dirname(folder));
    return parent.startsWith("@") ? `${parent}/${basename(folder)}` : basename(folder);
  }
  throw new UnbindableCommandError(
    `${folder}/package.json's name is not a string, so the harness cannot say which workspace npm takes it for; give it a name`,
  );
}

/** npm's get-workspaces test: the name, the folder, or the folder just above (no dot child). */
function selects(workspace: string, filter: string, candidate: FoundWorkspace): boolean {
  if (filter === candidate.name) return true;
  if (FILTER_MAGIC.test(filter) || filter.startsWith("#")) {
    throw new UnbindableCommandError(
      `npm reads -w ${JSON.stringify(filter)} as a pattern, which the harness does not match as npm would, so it cannot say which workspace npm runs; give -w a workspace's name or folder`,
    );
  }
  const path = relative(workspace, resolve(workspace, filter)).split(sep).join("/");
  if (path === "") {
    throw new UnbindableCommandError(
      `-w ${JSON.stringify(filter)} names the workspace's top folder, which npm matches inconsistently, so the harness does not bind it; give -w a workspace's name or folder`,
    );
  }
  if (path === candidate.folder) return true;
  const child = basename(candidate.folder);
  return dirname(candidate.folder) === path && !child.startsWith(".");
}

function parsed(text: string, shown: string): Readonly<Record<string, unknown>> {
  let manifest: unknown;
  try {
    manifest = manifestJson(text);
  } catch {
    throw new NpmScriptError(
      `the workspace's ${shown} is not valid JSON, so the harness cannot say which workspaces npm finds`,
    );
  }
  if (!isObject(manifest)) {
    throw new NpmScriptError(
      `the workspace's ${shown} is not a JSON object, so the harness cannot say which workspaces npm finds`,
    );
  }
  return manifest;
}
