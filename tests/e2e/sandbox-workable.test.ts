/**
 * Issue 29 through the built CLI: with the network off the model is told so up front, and a
 * failing `npm view` comes back saying so; a limit that is not one is a configuration error.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { hostExecutable } from "../support/host-executables.js";
import { PTY_REASON, isPtyAvailable, runInPty } from "../support/pty.js";
import { SANDBOX_NETWORK_OFF_NOTICE } from "../../src/features/sandbox-network-notice.js";
import { NETWORK_OFF_NOTE } from "../../src/adapters/sandbox/failure-notes.js";
import { serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

const SANDBOX =
  process.platform === "linux" &&
  ["bwrap", "bash", "prlimit", "npm"].every((name) => hostExecutable(name) !== undefined);

describe("sandbox settings through the CLI", () => {
  it.each([
    [
      ["--sandbox-limit", "memory=lots"],
      'agent: --sandbox-limit memory must be from 64 MiB to 1 TiB (e.g. 512MiB, 4GiB) or "unlimited" (got "lots")',
    ],
    [["--sandbox-unmask", "~/.vimrc"], "agent: --sandbox-unmask takes one of the masked paths"],
  ])("%j is a configuration error (exit 2) before anything runs", async (flags, message) => {
    const run = await e2e.agent([...flags, "--prompt", "hi"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(message);
    expect(e2e.server.requests).toHaveLength(0);
  });
});

const SUITE = `network off in the sandbox ${PTY_REASON} (needs bwrap, bash, prlimit and npm on PATH: Linux only)`;

describe.skipIf(!SANDBOX || !isPtyAvailable())(SUITE, () => {
  it("tells the model once, and `npm view` fails saying the network is off", async () => {
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_npm", name: "shell", arguments: { command: "npm view left-pad" } },
      ]),
      chatTextReply("No network."),
    );
    const run = await runInPty(
      [...e2e.argv(["--sandbox", "required", "--prompt", "Look up left-pad"])],
      { env: serverEnv(e2e.server.baseURL), prompt: "[y/N] ", answers: ["y\r"] },
    );
    expect(run.exitCode).toBe(0);
    const [first, second] = e2e.server.requests;
    const system = first?.messages.find((message) => message.role === "system")?.content ?? "";
    expect(system.split(SANDBOX_NETWORK_OFF_NOTICE)).toHaveLength(2);
    const shell = first?.tools?.find((tool) => tool.function.name === "shell");
    expect(shell?.function.description).toContain(SANDBOX_NETWORK_OFF_NOTICE);
    const result = toolResults(second).call_npm ?? "";
    expect(result).toContain("ENOTCACHED");
    expect(result.endsWith(`[sandbox] ${NETWORK_OFF_NOTE}`)).toBe(true);
  });
});
