/** Chapter 3's names where the tutorial states them: each is importable under that name. */
import { describe, expect, it } from "vitest";
import { NodeWorkspaceWriteBoundary } from "../../../src/adapters/filesystem/index.js";
import { toolMessage, validateToolPairing } from "../../../src/core/ports/messages.js";
import type { BuildDependencies } from "../../../src/bootstrap/agent-dependencies.js";
import { strongestDecision } from "../../../src/core/policy/permissions.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { TerminalApprovalProvider } from "../../../src/cli/terminal/approval/terminal-approval.js";
import { TerminalAuditSink } from "../../../src/cli/terminal/approval/terminal-audit.js";
import {
  BUILTIN_TOOL_NAMES,
  createFileTools,
  createShellTool,
} from "../../../src/features/builtin-tools.js";

describe("chapter 3's names", () => {
  it("strongestDecision: deny > ask > allow > passthrough", () => {
    const ask = PermissionDecision.ask("a", "rule");
    const deny = PermissionDecision.deny("d", "boundary");
    expect(strongestDecision([ask, deny])).toBe(deny);
    const none = strongestDecision([]);
    expect([none.behavior, none.reason, none.source]).toEqual([
      "passthrough",
      "No permission participant made a decision",
      "default",
    ]);
  });

  it("toolMessage(content, id) answers the call with that id", () => {
    const answer = toolMessage("Error [permission_denied]: no", "call_1");
    expect(answer).toEqual({
      role: "tool",
      toolCallId: "call_1",
      content: "Error [permission_denied]: no",
    });
    const call = { id: "call_1", name: "shell", arguments: "{}" };
    expect(() => {
      validateToolPairing([{ role: "assistant", content: null, toolCalls: [call] }, answer]);
    }).not.toThrow();
  });

  it("the write boundary answers isPathWithinWorkspace", async () => {
    const boundary = new NodeWorkspaceWriteBoundary({ harnessFiles: [] });
    expect(typeof boundary.isPathWithinWorkspace).toBe("function");
    await expect(boundary.isPathWithinWorkspace(process.cwd(), "../outside.txt")).resolves.toBe(
      false,
    );
  });

  it("features/builtin-tools.ts holds the five tools", () => {
    const shell = createShellTool({
      runner: { shellName: "PowerShell 7", run: () => Promise.reject(new Error("not run")) },
      workspace: "/ws",
    });
    const files = createFileTools({ fileSystem: {} as never });
    expect([shell, ...files].map((tool) => tool.name)).toEqual([...BUILTIN_TOOL_NAMES]);
  });

  it("BuildDependencies, TerminalApprovalProvider and TerminalAuditSink exist under those names", () => {
    const dependencies: Pick<BuildDependencies, "workspace"> = { workspace: "/ws" };
    expect(dependencies.workspace).toBe("/ws");
    expect(typeof TerminalApprovalProvider).toBe("function");
    expect(typeof TerminalAuditSink).toBe("function");
  });
});
