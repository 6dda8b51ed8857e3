/**
 * The demo's fixed parts, shared by `npm run demo` and the script that records it, so the replay
 * always asks what the recording answered.
 */
import { cp, mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const DEMO_PROMPT =
  "Look around this project, leave a short note in note.txt, and show that the shell works.";

export const DEMO_RECORDING = fileURLToPath(new URL("../examples/demo.jsonl", import.meta.url));

const DEMO_FILES = fileURLToPath(new URL("../examples/demo-workspace", import.meta.url));

/** A scratch copy of the demo project, so the demo never writes into the clone. */
export async function makeDemoWorkspace(): Promise<string> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), "agent-demo-")));
  await cp(DEMO_FILES, workspace, { recursive: true });
  return workspace;
}
