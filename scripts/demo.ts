/**
 * `npm run demo`: replays examples/demo.jsonl through the real CLI in this terminal, so a new user
 * sees the prompts, audit lines and refusals with no API key and no network. Answer the prompts as
 * you like: the replay is lenient about tool results, which depend on your answers.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { join, sep } from "node:path";
import { runCli } from "../src/cli/main.js";
import { processIo } from "../src/cli/process-io.js";
import { DEMO_PROMPT, DEMO_RECORDING, makeDemoWorkspace } from "./demo-session.js";

const workspace = await makeDemoWorkspace();
process.stderr.write(`Demo workspace (a scratch copy, removed afterwards): ${workspace}\n`);
process.stderr.write(`Prompt: ${DEMO_PROMPT}\n`);

let exitCode: number;
try {
  exitCode = await runCli(
    processIo([
      "--replay",
      DEMO_RECORDING,
      "--replay-lenient",
      "--workspace",
      workspace,
      "--prompt",
      DEMO_PROMPT,
      ...process.argv.slice(2),
    ]),
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
}
process.exitCode = exitCode;
