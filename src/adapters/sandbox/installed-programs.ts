/**
 * Installed code a sandboxed command may write (node_modules/, .venv/, .yarn/: every install does,
 * so they are not held read-only, core/policy/loaded-later-files.ts) but whose programs the host
 * runs later: an editor takes `.venv` for the project's Python and runs its interpreter (and the
 * `.pth` files of its site-packages), npm scripts and editors run `node_modules/.bin`, yarn the
 * release `yarnPath` names. What a command made or changed there is named after it, as a
 * loaded-later file it made is, so nobody finds it only when it runs.
 */
import { closeSync, constants, lstatSync, readdirSync, readlinkSync } from "node:fs";
import { npmWorkspaceFolders } from "../commands/index.js";
import { openRegularFileSync, readAtMostSync } from "../filesystem/index.js";
import { join } from "node:path";

/** Folders whose entries the host runs as programs, workspace-relative. */
const PROGRAM_FOLDERS = [
  "node_modules/.bin",
  ".venv/bin",
  "venv/bin",
  ".venv/Scripts",
  ".yarn/releases",
];
/** Virtual environments whose site-packages' start-up files every interpreter there runs. */
const VENVS = [".venv", "venv"];
/** In site-packages, what Python runs at every start: `.pth` lines, sitecustomize. */
const START_UP = /\.pth$|^(?:site|user)customize\.pyc?$/u;
/** Packages Python imports at start by these names, as files are. */
const START_UP_PACKAGES = ["sitecustomize/__init__.py", "usercustomize/__init__.py"];
/** A `.pth` file larger than this is not read for the modules it imports. */
const MAX_PTH_BYTES = 64 * 1024;
/** A command's note names at most this many programs of a folder, then counts the rest. */
const NAMED = 5;

/** Per folder, each program's identity (inode, size, change time); absent folders left out. */
export type InstalledPrograms = ReadonlyMap<string, ReadonlyMap<string, string>>;

export function installedProgramsBefore(workspace: string): InstalledPrograms {
  const folders = new Map<string, ReadonlyMap<string, string>>();
  for (const folder of watchedFolders(workspace)) {
    const programs = programsIn(workspace, folder);
    if (programs !== undefined) folders.set(folder, programs);
  }
  return folders;
}

/** A note for each program folder in which the command made or changed programs. */
export function installedProgramsMade(workspace: string, before: InstalledPrograms): string[] {
  const notes: string[] = [];
  const folders = new Set([...before.keys(), ...watchedFolders(workspace)]);
  for (const folder of folders) {
    const now = programsIn(workspace, folder);
    if (now === undefined) continue;
    const earlier = before.get(folder);
    const made = [...now].filter(([name, identity]) => earlier?.get(name) !== identity);
    if (made.length === 0) continue;
    const names = made
      .slice(0, NAMED)
      .map(([name]) => (name === FOLDER ? "the folder itself" : name));
    const more = made.length > NAMED ? `, and ${String(made.length - NAMED)} more` : "";
    const count = `${String(made.length)} ${made.length === 1 ? "program" : "programs"}`;
    const what =
      earlier === undefined
        ? `was created during this command, with ${count}`
        : `got ${count} made or changed during this command`;
    notes.push(
      `warning: ${join(workspace, folder)} ${what} (${names.join(", ")}${more}); an editor, npm scripts, Python or the shell run them later: check them before then`,
    );
  }
  return notes;
}

/**
 * The watched folders there now: the fixed ones, each npm workspace package's own
 * `node_modules/.bin` (npm puts it first on PATH for that package's scripts), and each venv's
 * site-packages.
 */
function watchedFolders(workspace: string): string[] {
  const folders = [
    ...PROGRAM_FOLDERS,
    ...npmWorkspaceFolders(workspace).map((folder) => `${folder}/node_modules/.bin`),
  ];
  for (const venv of VENVS) {
    let versions: string[];
    try {
      versions = readdirSync(join(workspace, venv, "lib")).filter((name) =>
        name.startsWith("python"),
      );
    } catch {
      continue;
    }
    for (const version of versions) folders.push(`${venv}/lib/${version}/site-packages`);
  }
  return folders;
}

/** The folder's own entry, where it is a link: where it leads is part of what runs. */
const FOLDER = "\u0000folder";

function programsIn(workspace: string, folder: string): Map<string, string> | undefined {
  const path = join(workspace, folder);
  const programs = new Map<string, string>();
  let names: string[];
  try {
    const stats = lstatSync(path);
    // A link in place of the folder (`.bin -> ../tools`) runs what it leads to: named by its target.
    if (stats.isSymbolicLink()) programs.set(FOLDER, `link:${readlinkSync(path)}`);
    names = readdirSync(path);
  } catch {
    return programs.size === 0 ? undefined : programs;
  }
  const siteStartUp = folder.endsWith("/site-packages");
  const watched = siteStartUp
    ? [
        ...names.filter((name) => START_UP.test(name)),
        ...START_UP_PACKAGES,
        // A `.pth` line `import _distutils_hack` runs that module at every start.
        ...names
          .filter((name) => name.endsWith(".pth"))
          .flatMap((name) => importedBy(join(path, name))),
      ]
    : names;
  for (const name of watched) {
    try {
      const stats = lstatSync(join(path, name), { bigint: true });
      programs.set(name, `${String(stats.ino)}:${String(stats.size)}:${String(stats.ctimeNs)}`);
    } catch {
      // not there (or gone since it was listed): nothing there to name
    }
  }
  return programs;
}

/** The module files a `.pth` file's `import` lines run, relative to its folder. */
function importedBy(pth: string): string[] {
  let text: string;
  try {
    // Never through a link, never a FIFO a command left in its place: a regular file, bounded.
    const { handle } = openRegularFileSync(pth, constants.O_RDONLY);
    try {
      text = readAtMostSync(handle, MAX_PTH_BYTES)?.toString("utf8") ?? "";
    } finally {
      closeSync(handle);
    }
  } catch {
    return [];
  }
  const modules = [...text.matchAll(/^import\s+([\w.]+(?:\s*,\s*[\w.]+)*)/gmu)].flatMap((match) =>
    (match[1] ?? "").split(",").map((name) => name.trim().split(".")[0] ?? ""),
  );
  return [...new Set(modules.filter(Boolean))].flatMap((name) => [
    `${name}.py`,
    `${name}/__init__.py`,
  ]);
}
