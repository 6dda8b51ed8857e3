import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";

/** Runs the CLI in-process and returns what it wrote to stderr. */
async function stderrOf(argv: readonly string[]): Promise<string> {
  const stderr = new PassThrough();
  let shown = "";
  stderr.on("data", (chunk: Buffer) => {
    shown += chunk.toString("utf8");
  });
  await runCli({
    argv,
    env: { AGENT_STATE_DIR: "/nonexistent-agent-state" },
    cwd: "/",
    platform: process.platform,
    stdin: Object.assign(new PassThrough(), { isTTY: false }),
    stdout: new PassThrough(),
    stderr,
    interrupts: { on: () => undefined },
  });
  return shown;
}

/**
 * An error line echoes what it was given (a path, a value): padding in it must not push the
 * rest of the line out of view, as on every other line the person reads.
 */
describe("agent: error lines echoing a path or a value", () => {
  const padded = `/nonexistent${" ".repeat(300)}${"\u200b".repeat(300)}/x`;

  it.each([
    ["a run", ["--workspace", padded, "--prompt", "hi"]],
    ["agent runs", ["runs", "--workspace", padded]],
    ["agent approvals", ["approvals", "--workspace", padded]],
    ["agent commands", ["commands", "--workspace", padded]],
    ["agent resume", ["resume", "--workspace", padded]],
  ])("%s counts the padding and shows what follows it", async (_label, argv) => {
    const shown = await stderrOf(argv);
    expect(shown).toMatch(/^agent: /);
    expect(shown).toContain("/nonexistent⟨300 spaces⟩⟨300 × U+200B⟩/x");
    expect(shown).not.toMatch(/ {32}/);
    expect(shown.split("\n").every((line) => line.length < 400)).toBe(true);
  });
});
