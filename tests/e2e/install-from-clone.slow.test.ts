/**
 * `npm install -g .` from a fresh clone, as the README has it: prepare builds the bundle, and the
 * installed agent runs from any directory. Two offline installs with a build each (tens of
 * seconds): in the slow project. The packed tarball's install is in install.test.ts.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";
import { serverEnv, type CliRun, type Env } from "./cli-process.js";
import { npm, run } from "./npm-process.js";
import { ScriptedChatServer } from "./scripted-chat-server.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TASK = "write a note";
const ON_WINDOWS = process.platform === "win32";

let server: ScriptedChatServer;
let dir: TempWorkspace;

beforeAll(async () => {
  server = await ScriptedChatServer.start();
  dir = await makeTempWorkspace("agent-install-");
});
afterAll(async () => {
  await server.close();
  await dir.cleanup();
});

/** A model that writes note.txt (chapter 2 writes without asking), then answers. */
function scriptNoteWrite(content: string): void {
  server.script(
    chatToolCallsReply([
      { id: "call_1", name: "write_file", arguments: { path: "note.txt", content } },
    ]),
    chatTextReply("Wrote the note."),
  );
}

async function freshProject(name: string): Promise<string> {
  const project = join(dir.root, name);
  await mkdir(project);
  return project;
}

function runInProject(command: string, args: readonly string[], cwd: string): Promise<CliRun> {
  return run(command, args, cwd, serverEnv(server.baseURL));
}

/** The tracked files of this working tree, as a fresh clone has them (no node_modules, no dist). */
function trackedFiles(): string[] | undefined {
  const listed = spawnSync("git", ["ls-files", "-z"], { cwd: REPO, encoding: "utf8" });
  return listed.status === 0 ? listed.stdout.split("\0").filter((file) => file !== "") : undefined;
}

const TRACKED = ON_WINDOWS ? undefined : trackedFiles();

/** `npm install --global .` of `clone` into `prefix`, offline, as the README has it. */
function installGlobally(clone: string, prefix: string, flags: readonly string[] = []) {
  const install = npm([
    "install",
    "--global",
    ...flags,
    "--offline",
    "--no-audit",
    "--no-fund",
    "--prefix",
    prefix,
    ".",
  ]);
  const env = { ...process.env, npm_config_update_notifier: "false" } as Env;
  return run(install.command, install.args, clone, env);
}

describe.skipIf(TRACKED === undefined)(
  `npm install -g . from a fresh clone (POSIX only, needs git; offline, from npm's cache)`,
  () => {
    it("builds on prepare and gives an agent that runs from any directory", async () => {
      const clone = await copyTrackedFiles(join(dir.root, "fresh-clone"));
      const prefix = join(dir.root, "prefix-from-clone");
      const installing = await installGlobally(clone, prefix);
      expect(installing.exitCode, installing.stderr).toBe(0);
      expect(existsSync(join(clone, "dist", "agent-bundle.cjs"))).toBe(true);

      const project = await freshProject("from-clone");
      scriptNoteWrite("from the linked clone\n");
      const session = await runInProject(
        join(prefix, "bin", "agent"),
        ["--chapter", "2", TASK],
        project,
      );
      expect(session.exitCode, session.stderr).toBe(0);
      expect(await readFile(join(project, "note.txt"), "utf8")).toBe("from the linked clone\n");
    }, 300_000);

    it("builds with the README's --install-links when a folder above the clone has its own esbuild", async () => {
      // A clone inside another project (or in a home with ~/node_modules): Node finds that esbuild,
      // but not the clone's other build dependencies, so prepare must install its own.
      const outer = join(dir.root, "outer-project");
      await mkdir(join(outer, "node_modules"), { recursive: true });
      await symlink(join(REPO, "node_modules", "esbuild"), join(outer, "node_modules", "esbuild"));
      const clone = await copyTrackedFiles(join(outer, "fresh-clone"));
      const prefix = join(dir.root, "prefix-inside-project");
      const installing = await installGlobally(clone, prefix, ["--install-links"]);
      expect(installing.exitCode, installing.stderr).toBe(0);

      const project = await freshProject("from-clone-inside-project");
      scriptNoteWrite("from the installed copy\n");
      const session = await runInProject(
        join(prefix, "bin", "agent"),
        ["--chapter", "2", TASK],
        project,
      );
      expect(session.exitCode, session.stderr).toBe(0);
      expect(await readFile(join(project, "note.txt"), "utf8")).toBe("from the installed copy\n");
    }, 300_000);
  },
);

async function copyTrackedFiles(clone: string): Promise<string> {
  for (const file of TRACKED ?? []) {
    await mkdir(dirname(join(clone, file)), { recursive: true });
    await copyFile(join(REPO, file), join(clone, file));
  }
  return clone;
}
