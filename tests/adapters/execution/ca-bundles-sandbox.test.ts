/**
 * The CA-bundle variables in the real sandbox with the network on, from real files and links:
 * each reaches the command as the real path it resolves to, where the sandbox shows the host's
 * file and no command can change it; one in the workspace, or hidden from the sandbox, does not
 * pass, and the one notice at start says which and why.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShellExecution } from "../../../src/adapters/execution/shell-execution.js";
import { hostExecutable } from "../../support/host-executables.js";

const HAS_SANDBOX =
  process.platform === "linux" &&
  ["bwrap", "bash"].every((name) => hostExecutable(name) !== undefined);
const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };
const SHOW = [
  'printf "%s|" "$NODE_EXTRA_CA_CERTS" "$SSL_CERT_FILE" "$SSL_CERT_DIR" "$REQUESTS_CA_BUNDLE"',
  'printf "%s|" "$CURL_CA_BUNDLE" "$GIT_SSL_CAINFO"',
  'test -s "$NODE_EXTRA_CA_CERTS" && test -s "$CURL_CA_BUNDLE" && echo readable',
].join("; ");

describe.skipIf(!HAS_SANDBOX)("CA bundles in the sandbox with --network", () => {
  let base: string;
  let ws: string;

  beforeEach(() => {
    base = mkdtempSync(join(realpathSync(tmpdir()), "ca-bundles-sandbox-"));
    ws = join(base, "ws");
    mkdirSync(ws);
  });

  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it("pass as their real paths when visible and outside the workspace; the rest are named", async () => {
    const hosts = realpathSync("/etc/hosts");
    // A link on the host's /tmp, which the sandbox covers: the file it leads to is visible.
    const onTmp = join(base, "proxy-ca.pem");
    symlinkSync(hosts, onTmp);
    // A link in the workspace, which a command could point elsewhere: its target is passed.
    symlinkSync(hosts, join(ws, "ca-link.pem"));
    // In the workspace: a command could plant its own certificate authority there.
    writeFileSync(join(ws, "planted.pem"), "-----BEGIN CERTIFICATE-----\n");
    const intoWorkspace = join(base, "into-workspace.pem");
    symlinkSync(join(ws, "planted.pem"), intoWorkspace);
    // A file on the host's /tmp: the sandbox never shows it.
    const hidden = join(base, "hidden.pem");
    writeFileSync(hidden, "-----BEGIN CERTIFICATE-----\n");

    const execution = await createShellExecution({
      sandbox: "required",
      network: true,
      shell: "posix",
      workspace: ws,
      platform: "linux",
      passEnv: [],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_EXTRA_CA_CERTS: onTmp,
        SSL_CERT_FILE: join(ws, "planted.pem"),
        SSL_CERT_DIR: "/etc",
        REQUESTS_CA_BUNDLE: hidden,
        CURL_CA_BUNDLE: join(ws, "ca-link.pem"),
        GIT_SSL_CAINFO: intoWorkspace,
      },
    });
    expect(execution.notices).toEqual([
      "not passed to sandboxed commands: " +
        "SSL_CERT_FILE (inside the workspace, which commands can change), " +
        "REQUESTS_CA_BUNDLE (not visible in the sandbox), " +
        "GIT_SSL_CAINFO (inside the workspace, which commands can change)",
    ]);
    const result = await execution.runner.run(SHOW, ws, LIMITS);
    expect(result.output).toBe(`${hosts}||${realpathSync("/etc")}||${hosts}||readable\n`);
  });
});
