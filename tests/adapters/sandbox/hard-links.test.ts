/**
 * Hard links and the sandbox (issue 28, item 7): a command cannot make a new hard link to a file
 * outside the workspace (the workspace is its own bind mount, and link(2) across mounts fails
 * with EXDEV). A hard link made before the run is the documented limit (docs/sandbox.md).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BubblewrapRunner } from "../../../src/adapters/sandbox/bubblewrap.js";
import { buildCommandEnvironment } from "../../../src/adapters/shell/command-environment.js";
import { withEnglishMessages } from "../../support/english-messages.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";

const BASH = hostExecutable("bash");

const SUITE =
  "hard links in real bubblewrap" +
  (BWRAP === undefined || BASH === undefined
    ? " (skipped: needs Linux with bwrap and bash on PATH)"
    : "");

describe.skipIf(BWRAP === undefined || BASH === undefined)(SUITE, () => {
  let base: string;

  beforeEach(async () => {
    base = await mkdtemp(join(await realpath(tmpdir()), "bwrap-links-"));
    await mkdir(join(base, "ws"));
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("a command cannot link a file outside the workspace into it", async () => {
    const runner = new BubblewrapRunner({
      bwrapPath: BWRAP ?? "",
      shell: { executable: BASH ?? "", kind: "bash" },
      workspace: join(base, "ws"),
      home: homedir(),
      network: false,
      environment: buildCommandEnvironment(withEnglishMessages(process.env), {
        passEnv: [],
        platform: "linux",
      }),
    });
    // /etc/passwd: a file every Linux host has (/etc/hostname is missing in some containers).
    const result = await runner.run(`ln /etc/passwd linked`, join(base, "ws"), {
      timeoutMs: 20_000,
      maxOutputBytes: 64 * 1024,
    });
    expect(result.output).toBe(
      "[stderr] ln: failed to create hard link 'linked' => '/etc/passwd': Invalid cross-device link\n",
    );
    expect(existsSync(join(base, "ws", "linked"))).toBe(false);
  });
});
