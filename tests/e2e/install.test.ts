/**
 * Using the agent on your own project: the task as one argument, the workspace where you ran the
 * command (also through `npm --prefix <clone> run agent`), and the package installed globally
 * from a packed tarball into a temporary prefix, with no network and no dependencies at run time.
 * `npm install -g .` from a fresh clone (two builds, tens of seconds) is in
 * install-from-clone.slow.test.ts.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { CLI_PATH, runCli, serverEnv, stderrLines, type CliRun } from "./cli-process.js";
import { npm, run } from "./npm-process.js";
import { ScriptedChatServer } from "./scripted-chat-server.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TASK = "write a note";
const ON_WINDOWS = process.platform === "win32";
const POSIX_ONLY = "(POSIX only: on Windows npm's bin is a .cmd shim)";

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

function firstUserMessage(): unknown {
  return server.requests[0]?.messages.find((message) => message.role === "user")?.content;
}

async function freshProject(name: string): Promise<string> {
  const project = join(dir.root, name);
  await mkdir(project);
  return project;
}

describe("the task as one argument", () => {
  it("reaches the model as the user's message", async () => {
    server.script(chatTextReply("ok"));
    const run = await runCli(["--workspace", dir.workspace, TASK], {
      env: serverEnv(server.baseURL),
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("ok\n");
    expect(firstUserMessage()).toBe(TASK);
  });

  it("unquoted, is refused with exit 2 and how to quote it, before any request", async () => {
    server.script(chatTextReply("unused"));
    const run = await runCli(["--workspace", dir.workspace, "write", "a", "note"], {
      env: serverEnv(server.baseURL),
    });
    expect(run).toEqual({
      exitCode: 2,
      signal: null,
      stdout: "",
      stderr:
        'agent: the task must be one argument: put it in quotes, e.g. agent "write a note" (got 3 arguments) (see --help)\n',
    });
    expect(server.rawRequests).toEqual([]);
  });
});

describe("the workspace is where the person ran the command", () => {
  it("without --workspace, the current directory", async () => {
    const project = await freshProject("plain-cwd");
    scriptNoteWrite("from cwd\n");
    const run = await runCli(["--chapter", "2", TASK], {
      env: serverEnv(server.baseURL),
      cwd: project,
    });
    expect(run.exitCode).toBe(0);
    expect(await readFile(join(project, "note.txt"), "utf8")).toBe("from cwd\n");
  });

  it("npm --prefix <clone> run agent -- TASK from a project writes in the project, not the clone", async () => {
    const project = await freshProject("npm-prefix");
    scriptNoteWrite("from npm\n");
    const { command, args } = npm(["--prefix", REPO, "run", "agent", "--", "--chapter", "2", TASK]);
    const run = await runInProject(command, args, project);
    expect(stderrLines(run).at(-1)).toBe("done in 2 turns · 1 call: 1 ran");
    expect(run.exitCode).toBe(0);
    expect(await readFile(join(project, "note.txt"), "utf8")).toBe("from npm\n");
    expect(existsSync(join(REPO, "note.txt"))).toBe(false);
    expect(firstUserMessage()).toBe(TASK);
  });

  it("npm run agent-tutorial -- run --chapter 3 --prompt TASK: the tutorial's single entry", async () => {
    const project = await freshProject("agent-tutorial");
    server.script(chatTextReply("Read it."));
    const { command, args } = npm([
      "--prefix",
      REPO,
      "run",
      "agent-tutorial",
      "--",
      "run",
      "--chapter",
      "3",
      "--prompt",
      TASK,
    ]);
    const run = await runInProject(command, args, project);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.endsWith("Read it.\n")).toBe(true);
    expect(firstUserMessage()).toBe(TASK);
  });
});

describe.skipIf(!isPtyAvailable())(`on a terminal ${PTY_REASON}`, () => {
  it("the first line names workspace, profile, model and endpoint, escaped; piped, it is not there", async () => {
    // A directory name with an escape sequence must not colour (or clear) the terminal.
    const project = await freshProject("red\u001b[31mproject");
    server.script(chatTextReply("ok"));
    const { exitCode, output } = await runInPty([process.execPath, CLI_PATH, TASK], {
      env: serverEnv(server.baseURL),
      cwd: project,
      prompt: "[y/N] ",
      answers: [],
    });
    expect(exitCode).toBe(0);
    expect(output).not.toContain("\u001b[31m");
    expect(terminalScreenLines(output)[0]).toBe(
      `agent: workspace ${join(dir.root, "red\\u{001b}[31mproject")} · chapter 3 · model gpt-4.1-mini · endpoint ${server.baseURL}`,
    );

    server.script(chatTextReply("ok"));
    const piped = await runCli([TASK], { env: serverEnv(server.baseURL), cwd: project });
    expect(stderrLines(piped).filter((line) => line.startsWith("agent: workspace"))).toEqual([]);

    // A key some providers take in the query string is never shown (the request may then fail).
    const withKey = await runInPty([process.execPath, CLI_PATH, TASK], {
      env: serverEnv(`${server.baseURL}?api-key=querysecret123`),
      cwd: project,
      prompt: "[y/N] ",
      answers: [],
    });
    expect(withKey.output).not.toContain("querysecret123");
    expect(terminalScreenLines(withKey.output)[0]).toBe(
      `agent: workspace ${join(dir.root, "red\\u{001b}[31mproject")} · chapter 3 · model gpt-4.1-mini · endpoint ${server.baseURL}`,
    );
  });
});

function runInProject(command: string, args: readonly string[], cwd: string): Promise<CliRun> {
  return run(command, args, cwd, serverEnv(server.baseURL));
}

describe.skipIf(ON_WINDOWS)(
  `installed from a packed tarball into a temporary prefix ${POSIX_ONLY}`,
  () => {
    let agent: string;

    beforeAll(async () => {
      const packed = join(dir.root, "packed");
      await mkdir(packed);
      const env = { ...process.env, npm_config_update_notifier: "false" };
      const pack = npm(["pack", "--pack-destination", packed]);
      const packing = await run(pack.command, pack.args, REPO, env);
      expect(packing.exitCode, packing.stderr).toBe(0);
      const tarball = (await readdir(packed)).find((name) => name.endsWith(".tgz"));
      expect(tarball).toBeDefined();
      const prefix = join(dir.root, "prefix");
      // --offline: no network; the package must need nothing beyond itself.
      const install = npm([
        "install",
        "--global",
        "--offline",
        "--no-audit",
        "--no-fund",
        "--prefix",
        prefix,
        join(packed, tarball ?? ""),
      ]);
      const installing = await run(install.command, install.args, dir.root, env);
      expect(installing.exitCode, installing.stderr).toBe(0);
      agent = join(prefix, "bin", "agent");
    }, 120_000);

    it("agent --version prints the package's version", async () => {
      const { version } = JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as {
        version: string;
      };
      const run = await runInProject(agent, ["--version"], dir.root);
      expect(run).toEqual({ exitCode: 0, signal: null, stdout: `${version}\n`, stderr: "" });
    });

    it("runs a scripted session from a project directory and writes there", async () => {
      const project = await freshProject("installed");
      scriptNoteWrite("from the installed agent\n");
      const run = await runInProject(agent, ["--chapter", "2", TASK], project);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toBe("Wrote the note.\n");
      expect(await readFile(join(project, "note.txt"), "utf8")).toBe("from the installed agent\n");
      expect(firstUserMessage()).toBe(TASK);
    });
  },
);
