import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { explainCall, plainExplainSettings } from "../../src/cli/commands/explain.js";
import { P04 } from "../../src/core/profiles.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/temp-workspace.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace();
  await writeFile(join(temp.base, "package.json"), "{}\n");
  await writeFile(join(temp.ws, "package.json"), '{"scripts":{"test":"vitest run"}}\n');
});
afterEach(async () => {
  await temp.cleanup();
});

function explain(tool: string, args: Record<string, unknown>): Promise<string[]> {
  return explainCall({
    tool,
    json: JSON.stringify(args),
    execution: plainExplainSettings({
      profile: P04,
      workspace: temp.ws,
      host: { env: { PATH: process.env.PATH ?? "" }, platform: process.platform },
    }),
  });
}

describe("agent explain read_file '../package.json' --chapter 4", () => {
  it("denies at the boundary, and no line calls the path inside", async () => {
    const lines = await explain("read_file", { path: "../package.json" });
    expect(lines).toContain(
      "workspace boundary: deny (workspace-boundary) - Reading outside the workspace is forbidden",
    );
    expect(lines).toContain(
      'p04-policy: deny (p04-policy) - path_outside_workspace: "../package.json" names a place outside the workspace',
    );
    expect(lines).toContain(
      "decision: deny (workspace-boundary) - Reading outside the workspace is forbidden",
    );
    expect(lines).toContain(
      "audit: [Permission] read_file: deny (workspace-boundary) - Reading outside the workspace is forbidden",
    );
    expect(lines.filter((line) => line.includes("inside"))).toEqual([]);
  });

  it("a read inside is still allowed, and said to be inside", async () => {
    const lines = await explain("read_file", { path: "package.json" });
    expect(lines).toContain(
      `decision: allow (p04-policy) - Allowed by P04: read inside the workspace ${temp.ws}`,
    );
  });
});

describe("agent explain --chapter 4 in a workspace with no .agent", () => {
  it("leaves the workspace as it found it: no .agent is created", async () => {
    const before = await readdir(temp.ws);
    expect(before).not.toContain(".agent");
    const lines = await explain("read_file", { path: "package.json" });
    expect(lines).toContain(
      `decision: allow (p04-policy) - Allowed by P04: read inside the workspace ${temp.ws}`,
    );
    expect(await readdir(temp.ws)).toEqual(before);
  });
});

describe("agent explain --chapter 4 where the run would refuse to start", () => {
  it("refuses as the run does: the home directory is no workspace for chapter 4", async () => {
    const explained = explainCall({
      tool: "read_file",
      json: JSON.stringify({ path: "package.json" }),
      execution: plainExplainSettings({
        profile: P04,
        workspace: temp.ws,
        host: { env: { PATH: process.env.PATH ?? "", HOME: temp.ws }, platform: process.platform },
      }),
    });
    await expect(explained).rejects.toThrow(
      `chapter 4 refuses to work in ${temp.ws}: it is your home directory`,
    );
    expect(await readdir(temp.ws)).not.toContain(".agent");
  });
});
