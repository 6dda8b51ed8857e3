/**
 * Issue 41 item 5 through the built CLI: inside the sandbox the home directory is read-only, so
 * tools built on configstore/update-notifier (ava, many CLIs) wrote nowhere and printed a box
 * asking for sudo. Sandboxed commands get a writable config home that lasts one command (git, pip
 * and gh read their configuration there: a kept one could be planted), and notifiers are off.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { hostExecutable } from "../support/host-executables.js";
import { PTY_REASON, isPtyAvailable, runInPty } from "../support/pty.js";
import { serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

const SANDBOX =
  process.platform === "linux" &&
  ["bwrap", "bash", "prlimit"].every((name) => hostExecutable(name) !== undefined);

/** What configstore does: write under $XDG_CONFIG_HOME, else ~/.config. */
const CONFIGSTORE = [
  "node -e '",
  'const fs = require("fs"), path = require("path"), os = require("os");',
  'const home = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");',
  'const file = path.join(home, "configstore", "update-notifier-ava.json");',
  'let before = "none"; try { before = fs.readFileSync(file, "utf8"); } catch {}',
  "fs.mkdirSync(path.dirname(file), { recursive: true });",
  'fs.writeFileSync(file, "stored");',
  'console.log("before=" + before + " notifier=" + process.env.NO_UPDATE_NOTIFIER);',
  "'",
].join(" ");

describe.skipIf(!SANDBOX || !isPtyAvailable())(`the sandbox's config home ${PTY_REASON}`, () => {
  it("is writable, lasts one command (nothing planted there is read by the next), and notifiers are off", async () => {
    e2e.server.script(
      chatToolCallsReply([{ id: "call_1", name: "shell", arguments: { command: CONFIGSTORE } }]),
      chatToolCallsReply([{ id: "call_2", name: "shell", arguments: { command: CONFIGSTORE } }]),
      chatTextReply("Stored."),
    );
    const run = await runInPty(e2e.argv(["--sandbox", "required", "--prompt", "Store a setting"]), {
      env: serverEnv(e2e.server.baseURL),
      prompt: "[y/N] ",
      answers: ["y\r", "y\r"],
    });
    expect(run.exitCode).toBe(0);
    const [, second, third] = e2e.server.requests;
    expect(toolResults(second).call_1).toBe("before=none notifier=1\n");
    // Git, pip and gh read their configuration from the same home: what one command writes there
    // must not reach the next.
    expect(toolResults(third).call_2).toBe("before=none notifier=1\n");
  });
});
