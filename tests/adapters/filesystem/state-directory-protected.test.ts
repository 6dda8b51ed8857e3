/**
 * Issue 16: the file tools never write the harness's state directory (run journals). It lies
 * outside the workspace (openWorkspaceState refuses an overlap), and the CLI also names it a
 * harness path, so even a state directory that somehow sat inside the workspace is refused.
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  NodeWorkspaceFileSystem,
  NodeWorkspaceWriteBoundary,
} from "../../../src/adapters/filesystem/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace("agent-state-files-");
});
afterEach(() => temp.cleanup());

describe("the file tools and the state directory", () => {
  it("refuse a state directory inside the workspace as a harness path (protected_path)", async () => {
    const state = join(temp.workspace, "state");
    await mkdir(join(state, "runs"), { recursive: true });
    const files = new NodeWorkspaceFileSystem(temp.workspace, { harnessFiles: [state] });
    for (const path of ["state/runs/r.jsonl", "state/new.txt", "state"]) {
      await expect(files.writeFile(path, "x")).rejects.toMatchObject({ code: "protected_path" });
    }
    await expect(
      new NodeWorkspaceWriteBoundary({ harnessFiles: [state] }).classifyWrite(
        temp.workspace,
        "state/runs/r.jsonl",
      ),
    ).resolves.toBe("harness-file");
    expect(existsSync(join(state, "runs", "r.jsonl"))).toBe(false);
  });

  it("refuse the real state directory, outside the workspace, by the workspace boundary", async () => {
    const state = join(temp.outside, "state");
    const files = new NodeWorkspaceFileSystem(temp.workspace, { harnessFiles: [state] });
    await expect(files.writeFile(join(state, "r.jsonl"), "x")).rejects.toThrow();
    await expect(files.writeFile("../outside/state/r.jsonl", "x")).rejects.toThrow();
    await expect(
      new NodeWorkspaceWriteBoundary({ harnessFiles: [state] }).classifyWrite(
        temp.workspace,
        "../outside/state/r.jsonl",
      ),
    ).resolves.not.toBe("inside");
    expect(existsSync(join(state, "r.jsonl"))).toBe(false);
  });
});
