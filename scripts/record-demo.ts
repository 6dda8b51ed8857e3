/**
 * Regenerates examples/demo.jsonl honestly: the real CLI, with --record, against the local
 * chat-completions test server playing a scripted model. Run with `npx tsx scripts/record-demo.ts`.
 */
import { rm } from "node:fs/promises";
import { runCli } from "../src/cli/main.js";
import { processIo } from "../src/cli/process-io.js";
import {
  ChatCompletionsServer,
  chatTextReply,
  chatToolCallsReply,
  chatUsage,
} from "../tests/support/chat-completions-server.js";
import { DEMO_PROMPT, DEMO_RECORDING, makeDemoWorkspace } from "./demo-session.js";

const usage = (prompt: number, completion: number) => ({ usage: chatUsage(prompt, completion) });

const server = await ChatCompletionsServer.start([
  chatToolCallsReply(
    [{ id: "call_glob", name: "glob", arguments: { pattern: "**/*" } }],
    usage(812, 18),
  ),
  chatToolCallsReply(
    [
      {
        id: "call_note",
        name: "write_file",
        arguments: {
          path: "note.txt",
          content: "This project has a README and one module, src/greet.ts.\n",
        },
      },
    ],
    usage(861, 41),
  ),
  chatToolCallsReply(
    [
      {
        id: "call_outside",
        name: "write_file",
        arguments: { path: "../outside.txt", content: "x" },
      },
    ],
    usage(925, 30),
  ),
  chatToolCallsReply(
    [{ id: "call_shell", name: "shell", arguments: { command: "echo hello from the shell" } }],
    usage(978, 22),
  ),
  chatTextReply(
    "I listed the project (README.md and src/greet.ts), proposed note.txt, tried ../outside.txt " +
      "(outside the workspace, so it is always refused) and proposed one shell command. The lines " +
      "above show which calls you allowed.",
    usage(1031, 52),
  ),
]);

const workspace = await makeDemoWorkspace();
try {
  process.exitCode = await runCli({
    ...processIo(["--record", DEMO_RECORDING, "--workspace", workspace, "--prompt", DEMO_PROMPT]),
    env: { ...process.env, OPENAI_API_KEY: "recording-demo", OPENAI_BASE_URL: server.baseURL },
  });
} finally {
  await server.close();
  await rm(workspace, { recursive: true, force: true });
}
