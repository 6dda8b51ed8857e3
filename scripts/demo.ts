/**
 * `npm run demo`: replays examples/demo.jsonl through the real CLI in this terminal, so a new user
 * sees the prompts, audit lines and refusals with no API key and no network. Answer the prompts as
 * you like: the replay is lenient about tool results, which depend on your answers. The CLI is the
 * bundle `npm run agent` runs (scripts/agent.cjs rebuilds it first if the sources changed).
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_PROMPT, DEMO_RECORDING, makeDemoWorkspace } from "./demo-session.js";

const AGENT = fileURLToPath(new URL("./agent.cjs", import.meta.url));

/**
 * Runs the CLI with this terminal; Ctrl-C reaches it directly, and its exit code is ours. The
 * person's own settings file and AGENTS.md are not read (an empty config folder in their place):
 * a `"profile": "daily"` there would offer other tools than the recording's, and the replay stop.
 */
function runAgent(args: readonly string[], configHome: string): Promise<number> {
  const child = spawn(process.execPath, [AGENT, ...args], {
    stdio: "inherit",
    env: { ...process.env, XDG_CONFIG_HOME: configHome, APPDATA: configHome },
  });
  const ignore = (): void => undefined;
  process.on("SIGINT", ignore);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      process.off("SIGINT", ignore);
      resolve(code ?? (signal === "SIGINT" ? 130 : 1));
    });
  });
}

const workspace = await makeDemoWorkspace();
// The run's journal (and any approval state) goes to a scratch state directory of its own, removed
// with the workspace: a journal left in the person's state directory would name a workspace that
// no longer exists. mkdtemp makes it owner-only, as the agent requires.
const stateDir = await realpath(await mkdtemp(join(tmpdir(), "agent-demo-state-")));
const configHome = await realpath(await mkdtemp(join(tmpdir(), "agent-demo-config-")));
process.stderr.write(`Demo workspace (a scratch copy, removed afterwards): ${workspace}\n`);
process.stderr.write(`Prompt: ${DEMO_PROMPT}\n`);

let exitCode: number;
try {
  exitCode = await runAgent(
    [
      "--replay",
      DEMO_RECORDING,
      "--replay-lenient",
      "--workspace",
      workspace,
      "--state-dir",
      stateDir,
      "--prompt",
      DEMO_PROMPT,
      ...process.argv.slice(2),
    ],
    configHome,
  );
  const files = (await readdir(workspace, { recursive: true }))
    .map((file) => file.split(sep).join("/"))
    .sort();
  process.stderr.write(`\nFiles in the demo workspace afterwards: ${files.join(", ")}\n`);
  if (files.includes("note.txt")) {
    const note = await readFile(join(workspace, "note.txt"), "utf8");
    process.stderr.write(`note.txt: ${JSON.stringify(note)}\n`);
  }
} finally {
  await rm(workspace, { recursive: true, force: true });
  await rm(stateDir, { recursive: true, force: true });
  await rm(configHome, { recursive: true, force: true });
}
process.exitCode = exitCode;
