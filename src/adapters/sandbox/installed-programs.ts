/**
 * Installed code a sandboxed command may write (node_modules/, .venv/: every install does, so
 * they are not held read-only, core/policy/loaded-later-files.ts) but whose programs the host runs
 * later: an editor takes `.venv` for the project's Python and runs its interpreter, npm scripts
 * and editors run `node_modules/.bin`. What a command made or changed there is named after it,
 * as a loaded-later file it made is, so nobody finds it only when it runs.
 */
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Folders whose entries the host runs as programs, workspace-relative. */
const PROGRAM_FOLDERS = ["node_modules/.bin", ".venv/bin", "venv/bin", ".venv/Scripts"];
/** A command's note names at most this many programs of a folder, then counts the rest. */
const NAMED = 5;

/** Per folder, each program's identity (inode, size, change time); absent folders left out. */
export type InstalledPrograms = ReadonlyMap<string, ReadonlyMap<string, string>>;

export function installedProgramsBefore(workspace: string): InstalledPrograms {
  const folders = new Map<string, ReadonlyMap<string, string>>();
  for (const folder of PROGRAM_FOLDERS) {
    const programs = programsIn(join(workspace, folder));
    if (programs !== undefined) folders.set(folder, programs);
  }
  return folders;
}

/** A note for each program folder in which the command made or changed programs. */
export function installedProgramsMade(workspace: string, before: InstalledPrograms): string[] {
  const notes: string[] = [];
  for (const folder of PROGRAM_FOLDERS) {
    const now = programsIn(join(workspace, folder));
    if (now === undefined) continue;
    const earlier = before.get(folder);
    const made = [...now].filter(([name, identity]) => earlier?.get(name) !== identity);
    if (made.length === 0) continue;
    const names = made.slice(0, NAMED).map(([name]) => name);
    const more = made.length > NAMED ? `, and ${String(made.length - NAMED)} more` : "";
    const count = `${String(made.length)} ${made.length === 1 ? "program" : "programs"}`;
    const what =
      earlier === undefined
        ? `was created during this command, with ${count}`
        : `got ${count} made or changed during this command`;
    notes.push(
      `warning: ${join(workspace, folder)} ${what} (${names.join(", ")}${more}); an editor, npm scripts or the shell run them later: check them before then`,
    );
  }
  return notes;
}

function programsIn(folder: string): Map<string, string> | undefined {
  let names: string[];
  try {
    if (!lstatSync(folder).isDirectory()) return undefined;
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  const programs = new Map<string, string>();
  for (const name of names) {
    try {
      const stats = lstatSync(join(folder, name), { bigint: true });
      programs.set(name, `${String(stats.ino)}:${String(stats.size)}:${String(stats.ctimeNs)}`);
    } catch {
      // gone since it was listed: nothing there to name
    }
  }
  return programs;
}
