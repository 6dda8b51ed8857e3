/**
 * The workspace files a command reaches without naming them by a path: the files of node's test
 * runner, which never reads its stdin.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  npmScriptRows,
  npmScriptText,
  shellTextReach,
} from "../../../src/adapters/commands/index.js";
import type { P04Context } from "../../../src/core/grants/policy-context.js";
import { authorizeP04 } from "../../../src/core/grants/policy.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { createRunCommandTool } from "../../../src/features/run-command-tool.js";

let ws: string;
beforeEach(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), "reach-files-")));
});
afterEach(() => {
  rmSync(ws, { recursive: true, force: true });
});

function write(path: string, content: string): string {
  mkdirSync(join(ws, path, ".."), { recursive: true });
  writeFileSync(join(ws, path), content);
  return sha(content);
}
function sha(content: string): string {
  return `sha256 ${createHash("sha256").update(content).digest("hex")}`;
}

describe("node's test runner finds its own files and never reads stdin", () => {
  it("npm test with node --test test/ binds the script, and no error for the directory", () => {
    write("package.json", JSON.stringify({ scripts: { test: "node --test test/" } }));
    write("test/a.test.js", "1\n");
    expect(npmScriptText(ws, ["npm", "test"])).toBe('runs the script "node --test test/"');
  });

  it("bare node --test binds nothing and is not taken for a program read from stdin", () => {
    expect(npmScriptText(ws, ["node", "--test"])).toBeUndefined();
    expect(shellTextReach(ws, "node --test --test-reporter spec")).toBeUndefined();
  });

  it("node --test FILE binds the test files there are; a pattern the shell expands is no error", () => {
    const a = write("test/a.test.js", "1\n");
    expect(npmScriptText(ws, ["node", "--test", "test/a.test.js", "test/b.test.js"])).toBe(
      `and node is given test/a.test.js (${a})`,
    );
    write("package.json", JSON.stringify({ scripts: { test: "node --test test/*.test.js" } }));
    expect(npmScriptText(ws, ["npm", "test"])).toBe('runs the script "node --test test/*.test.js"');
  });

  it("node - and python - read their program from stdin, as a bare node does", () => {
    for (const argv of [
      ["node", "-"],
      ["python3", "-"],
    ]) {
      expect(() => npmScriptText(ws, argv)).toThrow("is given no file or code of its own");
    }
  });
});

describe("chapter 4 runs an allowlisted npm test whose script is node --test", () => {
  it("authorizeP04 asks about it, showing the script, instead of refusing every call", () => {
    write("package.json", JSON.stringify({ scripts: { test: "node --test test/" } }));
    write("test/a.test.js", "1\n");
    const context: P04Context = {
      cwd: ws,
      realWorkspaceRoot: ws,
      allowedArgv: [["npm", "test"]],
      network: "disabled",
      sandbox: { kind: "isolated", network: "disabled", label: "sandbox: bwrap" },
      now: 0,
      requestTtlMs: 1000,
      newRequestId: () => "req_0000000000000001",
      classifyPath: () => "outside",
      scriptOf: (argv) => npmScriptRows(ws, argv),
    };
    const tool = createRunCommandTool({
      runner: { run: () => Promise.reject(new Error("never runs here")) },
      workspace: ws,
    });
    const prepared = new ToolRegistry([tool]).snapshot().prepare({
      id: "call_1",
      name: "run_command",
      arguments: JSON.stringify({ command: "npm", args: ["test"] }),
    });
    if (!prepared.ok) throw new Error(prepared.result.content);
    const decision = authorizeP04(prepared.call, context);
    expect(decision.behavior).toBe("ask");
    expect(decision.behavior === "ask" ? decision.request.scriptRows : undefined).toEqual([
      'runs the script "node --test test/"',
    ]);
  });
});
