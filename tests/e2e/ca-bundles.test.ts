/**
 * Issue 41 item 9 through the built CLI: behind a TLS proxy every download failed in the sandbox
 * with `--network`, because the CA-bundle variables were stripped. With the network on they pass
 * (what they name must be readable in the sandbox: one on its private /tmp is not passed, and the
 * first lines say so); with it off they do not. Each passes as the real path it resolves to: a
 * link on /tmp would not exist inside, and one into the workspace could be a planted CA.
 */
import { realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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

const SHOW =
  'echo "$NODE_EXTRA_CA_CERTS|$SSL_CERT_FILE|$SSL_CERT_DIR|$GIT_SSL_CAINFO|$CURL_CA_BUNDLE"';

async function showInSandbox(
  flags: readonly string[],
): Promise<{ result: string; output: string }> {
  // Files every Linux has, outside the sandbox's private /tmp; and one on /tmp, which it hides.
  const onTmp = join(e2e.dir.root, "proxy-ca.pem");
  writeFileSync(onTmp, "-----BEGIN CERTIFICATE-----\n");
  const linkOnTmp = join(e2e.dir.root, "linked-ca.pem");
  symlinkSync("/etc/hosts", linkOnTmp);
  const inWorkspace = join(e2e.dir.workspace, "planted-ca.pem");
  writeFileSync(inWorkspace, "-----BEGIN CERTIFICATE-----\n");
  e2e.server.script(
    chatToolCallsReply([{ id: "call_1", name: "shell", arguments: { command: SHOW } }]),
    chatTextReply("Shown."),
  );
  const run = await runInPty(e2e.argv(["--sandbox", "required", ...flags, "--prompt", "Show"]), {
    env: serverEnv(e2e.server.baseURL, {
      NODE_EXTRA_CA_CERTS: "/etc/hosts",
      SSL_CERT_FILE: onTmp,
      SSL_CERT_DIR: "/etc",
      GIT_SSL_CAINFO: linkOnTmp,
      CURL_CA_BUNDLE: "relative.pem",
      REQUESTS_CA_BUNDLE: inWorkspace,
    }),
    prompt: "[y/N] ",
    answers: ["y\r"],
  });
  expect(run.exitCode).toBe(0);
  return { result: toolResults(e2e.server.requests[1]).call_1 ?? "", output: run.output };
}

describe.skipIf(!SANDBOX || !isPtyAvailable())(`CA bundles in the sandbox ${PTY_REASON}`, () => {
  it("pass with --network when the sandbox can read what they name, and the rest are named", async () => {
    const { result, output } = await showInSandbox(["--network"]);
    const hosts = realpathSync("/etc/hosts");
    expect(result).toBe(`${hosts}||${realpathSync("/etc")}|${hosts}|\n`);
    expect(output).toContain(
      "not passed to sandboxed commands: SSL_CERT_FILE (not visible in the sandbox), " +
        "REQUESTS_CA_BUNDLE (inside the workspace, which commands can change), " +
        "CURL_CA_BUNDLE (not an absolute path)",
    );
  });

  it("do not pass with the network off", async () => {
    const { result } = await showInSandbox([]);
    expect(result).toBe("||||\n");
  });
});
