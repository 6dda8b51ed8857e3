/**
 * The sandbox probe works in a temp workspace of its own (`agent-sandbox-probe-*` under the temp
 * directory). Ctrl-C ends a run at once (`process.exit`), and so do SIGTERM and SIGHUP
 * (src/cli/termination-signals.ts), without waiting for the probe's asynchronous clean-up: the
 * directory must still be gone when the process has exited, whichever of them ended it.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { NEVER_ANSWER } from "../support/chat-completions-server.js";
import { serverEnv, startCli } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

function probeWorkspaces(temp: string): string[] {
  return readdirSync(temp).filter((name) => name.startsWith("agent-sandbox-probe-"));
}

describe.skipIf(process.platform !== "linux")("the sandbox probe's temp workspace (Linux)", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("is removed when %s ends the run while the probe runs", async (signal, code) => {
    const temp = join(e2e.dir.root, "temp");
    const bin = join(e2e.dir.root, "bin");
    mkdirSync(temp);
    mkdirSync(bin);
    // A bwrap that never finishes: the probe is still running when the signal comes. A bwrap
    // the run has never met has no remembered verdict, so the probe starts with the run.
    const started = join(e2e.dir.root, "bwrap-started");
    writeFileSync(join(bin, "bwrap"), `#!/bin/sh\n: > '${started}'\nexec sleep 600\n`, {
      mode: 0o755,
    });
    e2e.server.script(NEVER_ANSWER);
    const cli = startCli(["--workspace", e2e.dir.workspace, "--prompt", "Hi"], {
      env: serverEnv(e2e.server.baseURL, {
        TMPDIR: temp,
        PATH: `${bin}:${process.env.PATH ?? ""}`,
      }),
    });
    await vi.waitFor(
      () => {
        if (!existsSync(started)) throw new Error("the probe has not started bwrap yet");
      },
      { timeout: 20_000, interval: 20 },
    );
    expect(probeWorkspaces(temp)).toHaveLength(1);

    cli.child.kill(signal);
    const run = await cli.done;

    expect(run.exitCode).toBe(code);
    expect(probeWorkspaces(temp)).toEqual([]);
  });
});
