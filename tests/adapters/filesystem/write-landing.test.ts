/**
 * A write through a link names the file it lands on: the approval prompt, the terminal's audit line
 * and the JSON audit record all show it, from the boundary check that decided (not a second
 * look-up by name).
 */
import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeWorkspaceWriteBoundary } from "../../../src/adapters/filesystem/index.js";
import { writeLanding } from "../../../src/adapters/filesystem/write-landing.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { PermissionPolicy } from "../../../src/core/policy/permissions.js";
import { renderApprovalPrompt } from "../../../src/cli/terminal/approval/terminal-approval.js";
import { formatAuditLine } from "../../../src/cli/terminal/approval/terminal-audit.js";
import { RecordingApprover, RecordingAuditSink } from "../../support/permission-fakes.js";
import { preparedCall } from "../../support/prepared-calls.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace();
  await mkdir(join(temp.workspace, "src"));
  await writeFile(join(temp.workspace, "src", "a.ts"), "export const a = 1;\n");
  await mkdir(join(temp.workspace, "inner"));
  await symlink("src/a.ts", join(temp.workspace, "notes.txt"));
  await symlink("inner", join(temp.workspace, "link_in"));
});
afterEach(() => temp.cleanup());

async function decideWrite(tool: string, path: string) {
  const approver = new RecordingApprover(() =>
    PermissionDecision.allow("Approved by the person", "terminal-approval"),
  );
  const audit = new RecordingAuditSink();
  const policy = new PermissionPolicy({
    workspaceBoundary: { workspace: temp.workspace, boundary: new NodeWorkspaceWriteBoundary() },
    approval: approver,
    audit,
  });
  const request = new PermissionRequest(preparedCall(tool, "write", { path, content: "x" }), {
    recommendations: [PermissionDecision.ask("File writes ask", "file-writes")],
  });
  const decision = await policy.decide(request);
  return { decision, asked: approver.requests, audited: audit.entries };
}

describe("a write through a link", () => {
  it.each([
    ["write_file", "notes.txt", "src/a.ts"],
    ["edit_file", "notes.txt", "src/a.ts"],
    ["write_file", "link_in/new.txt", "inner/new.txt"],
    ["edit_file", "./link_in/new.txt", "inner/new.txt"],
  ])("%s of %j is shown and audited as landing on %j", async (tool, path, landsOn) => {
    const { decision, asked, audited } = await decideWrite(tool, path);

    expect(decision.behavior).toBe("allow");
    expect(asked.map((request) => request.landsOn)).toEqual([landsOn]);
    expect(audited.map((entry) => entry.request.landsOn)).toEqual([landsOn]);
    const [prompted] = asked;
    if (prompted === undefined) throw new Error("the person was not asked");
    const { details } = renderApprovalPrompt(prompted, "en");
    expect(details.split("\n")).toContain(
      `Path: ${JSON.stringify(path)} → ${JSON.stringify(landsOn)}`,
    );
    const [entry] = audited;
    if (entry === undefined) throw new Error("nothing was audited");
    expect(formatAuditLine(entry.request, entry.decision)).toBe(
      `[Permission] ${tool}: allow (terminal-approval) - Approved by the person ` +
        `(writes ${JSON.stringify(landsOn)} through the link ${JSON.stringify(path)})`,
    );
  });

  it("a path with no link on the way names no other file", async () => {
    const { asked, audited } = await decideWrite("write_file", "src/a.ts");

    expect(asked.map((request) => request.landsOn)).toEqual([undefined]);
    expect(audited.map((entry) => entry.request.landsOn)).toEqual([undefined]);
    const [prompted] = asked;
    if (prompted === undefined) throw new Error("the person was not asked");
    expect(renderApprovalPrompt(prompted, "en").details.split("\n")).toContain('Path: "src/a.ts"');
  });
});

describe("no link on the way names no other file", () => {
  it.each(["darwin", "win32"] as const)(
    "on %s a name that differs from the real one only in letter case or Unicode form",
    (platform) => {
      const root = temp.workspace;
      const target = join(root, "src", "caf\u00e9.ts");
      expect(writeLanding(root, "SRC/CAFE\u0301.ts", target, { platform })).toBeUndefined();
      expect(writeLanding(root, "notes.txt", join(root, "src", "a.ts"), { platform })).toBe(
        "src/a.ts",
      );
    },
  );

  it("on Linux, where letter case makes another name, a case difference is a link", () => {
    const root = temp.workspace;
    expect(writeLanding(root, "SRC/A.ts", join(root, "src", "a.ts"), { platform: "linux" })).toBe(
      "src/a.ts",
    );
  });

  it.skipIf(process.platform === "win32")(
    "an absolute path through a linked parent of the workspace (/tmp → /private/tmp)",
    async () => {
      await symlink(temp.root, join(temp.outside, "parent-link"));
      const workspace = join(temp.outside, "parent-link", "workspace");
      const root = await realpath(workspace);
      expect(root).toBe(temp.workspace);

      expect(
        writeLanding(root, join(workspace, "src", "a.ts"), join(root, "src", "a.ts"), {
          workspace,
        }),
      ).toBeUndefined();
      expect(
        writeLanding(root, join(root, "src", "a.ts"), join(root, "src", "a.ts"), { workspace }),
      ).toBeUndefined();
      // A link inside the workspace is still one, however the workspace is named.
      expect(
        writeLanding(root, join(workspace, "notes.txt"), join(root, "src", "a.ts"), {
          workspace,
        }),
      ).toBe("src/a.ts");
    },
  );
});
