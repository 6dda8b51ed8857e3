import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { testStateDirectory } from "./cli-process.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * What `npm run demo` runs (`tsx scripts/demo.ts`), as a fresh clone runs it, with no key and stdin
 * that is not a terminal. Node is spawned directly: `npm` is a .cmd script on Windows.
 */
function runDemo(
  stateDir: string,
  configHome = join(testStateDirectory(), "no-personal-config"),
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    // Nothing of the developer's own configuration: no key, and no AGENT_* setting (an
    // AGENT_AUDIT_LOG, say, would have the demo append to their log).
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (!name.startsWith("OPENAI_") && !name.startsWith("AGENT_")) env[name] = value;
    }
    env.NO_COLOR = "1";
    // Were the demo to journal its run where the person's runs are, it would land here.
    env.AGENT_STATE_DIR = stateDir;
    // Nor the developer's settings.json or AGENTS.md: a `chapter` there changes the tools the
    // replay offers, and the recording then diverges (as baseEnv in cli-process.ts does).
    env.XDG_CONFIG_HOME = configHome;
    Object.assign(env, extraEnv);
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
      cwd: repo,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

describe("npm run demo", () => {
  it("replays the recorded session green with no key: every decision shown, nothing outside written", async () => {
    const stateDir = await mkdtemp(join(testStateDirectory(), "demo-state-"));
    const scratchBefore = await demoStateDirs();
    const { code, stdout, stderr } = await runDemo(stateDir);

    expect(code).toBe(0);
    expect(stdout).toBe(
      "I listed the project (README.md and src/greet.ts), proposed note.txt, tried ../outside.txt " +
        "(outside the workspace, so it is always refused) and proposed one shell command. The lines " +
        "above show which calls you allowed.\n",
    );
    const decisions = stderr.split("\n").filter((line) => line.startsWith("[Permission]"));
    expect(decisions).toHaveLength(4);
    expect(decisions[0]).toBe(
      "[Permission] glob: allow (default) - No permission rule blocked the request",
    );
    expect(decisions[1]).toBe(
      "[Permission] write_file: deny (terminal-approval) - Interactive approval is unavailable (stdin is not a TTY)",
    );
    expect(decisions[2]).toBe(
      "[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
    );
    expect(decisions[3]).toMatch(
      /^\[Permission\] shell: deny \(terminal-approval\) - Interactive approval is unavailable \(stdin is not a TTY\) \[sandbox: .+\] \{cwd=\S+ timeoutMs=120000 maxOutputBytes=51200 shell=\S+\}$/,
    );
    expect(stderr).toContain(
      "Files in the demo workspace afterwards: README.md, src, src/greet.ts\n",
    );
    // The scratch workspace is gone, and so is every trace of its run: no journal in the person's
    // state directory, and the demo's own scratch state directory removed with the workspace.
    const workspace = /^Demo workspace \(a scratch copy, removed afterwards\): (.+)$/m.exec(
      stderr,
    )?.[1];
    expect(workspace).toBeDefined();
    expect(existsSync(workspace ?? "")).toBe(false);
    expect(await readdir(stateDir)).toEqual([]);
    expect(await demoStateDirs()).toEqual(scratchBefore);
  });
});

describe("npm run demo for a person with settings of their own", () => {
  it("replays green whatever their settings file, AGENTS.md and OPENAI_MODEL say", async () => {
    const stateDir = await mkdtemp(join(testStateDirectory(), "demo-state-"));
    const configHome = await mkdtemp(join(testStateDirectory(), "demo-config-"));
    await mkdir(join(configHome, "agent-harness"));
    await writeFile(
      join(configHome, "agent-harness", "settings.json"),
      JSON.stringify({ profile: "daily", model: "gpt-5" }),
    );
    await writeFile(join(configHome, "agent-harness", "AGENTS.md"), "Answer in French.\n");
    const { code, stderr } = await runDemo(stateDir, configHome, { OPENAI_MODEL: "other" });
    expect(stderr).not.toContain("Replay diverged");
    expect(code).toBe(0);
    expect(stderr.split("\n").filter((line) => line.startsWith("[Permission]"))).toHaveLength(4);
  });
});

/** The demo's scratch state directories in the temp directory. */
async function demoStateDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith("agent-demo-state-")).sort();
}
