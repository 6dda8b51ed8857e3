/**
 * The final arguments name the environment a command receives (issue 30 item 4): the names the
 * runner really passes, never a value, and never a refused secret's name.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JsonlAuditLog } from "../../../src/adapters/audit/jsonl-audit-log.js";
import { planShell, createShellRunner } from "../../../src/adapters/shell/index.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { formatAuditLine } from "../../../src/cli/terminal/approval/terminal-audit.js";
import { createShellTool } from "../../../src/features/shell-tool.js";

const HOST_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: "/home/someone",
  LANG: "C.UTF-8",
  OPENAI_API_KEY: "sk-the-key-value-123456",
  GITHUB_TOKEN: "ghp_token-value-123456",
  RANDOM_THING: "not allowlisted",
};

describe.skipIf(process.platform === "win32")("final arguments: the environment, by name", () => {
  it("the JSON audit record lists the names the shell receives; no value, no refused name", async () => {
    const dir = await mkdtemp(join(tmpdir(), "final-args-"));
    const runner = createShellRunner(
      planShell({
        choice: "posix",
        env: HOST_ENV,
        workspace: "/ws",
        platform: process.platform,
        passEnv: [],
      }),
    );
    expect(runner.environmentNames).toEqual(["HOME", "LANG", "PATH"]);
    const shell = createShellTool({ runner, workspace: "/ws", timeoutMs: 30_000 });
    const outcome = new ToolRegistry([shell])
      .snapshot()
      .prepare({ id: "call_shell", name: "shell", arguments: '{"command":"env"}' });
    if (!outcome.ok) throw new Error(outcome.result.content);
    const request = new PermissionRequest(outcome.call);
    const decision = PermissionDecision.allow("ok", "test");
    const log = new JsonlAuditLog({ path: join(dir, "audit.jsonl"), chapter: 3 });
    const record = log.toRecord(request, decision);
    log.close();
    await rm(dir, { recursive: true, force: true });
    expect(record.finalArguments).toEqual({
      cwd: "/ws",
      timeoutMs: 30_000,
      maxOutputBytes: 51_200,
      shell: runner.shellName,
      environmentNames: "HOME,LANG,PATH",
    });
    const text = JSON.stringify(record);
    for (const value of Object.values(HOST_ENV).slice(1)) expect(text).not.toContain(value);
    expect(text).not.toContain("OPENAI_API_KEY");
    // The terminal's one line keeps its chapter-3 form.
    expect(formatAuditLine(request, decision)).toBe(
      `[Permission] shell: allow (test) - ok {cwd=/ws timeoutMs=30000 maxOutputBytes=51200 shell=${runner.shellName}}`,
    );
  });
});
