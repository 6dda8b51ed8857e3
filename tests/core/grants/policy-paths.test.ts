/**
 * P04 authorizes reads and writes by where their path lands on the disk (the seed's
 * `authorizeWorkspacePath`), with the adapter's own resolution: a path outside, a link that leads
 * out and a protected path are denied by the policy and the boundary, before the tool, and only a
 * path resolved inside is ever called "inside".
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeWorkspaceWriteBoundary } from "../../../src/adapters/filesystem/index.js";
import { P04Authorizer } from "../../../src/core/grants/p04-authorizer.js";
import type { P04Context } from "../../../src/core/grants/policy-context.js";
import { authorizeP04 } from "../../../src/core/grants/policy.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { PermissionPolicy } from "../../../src/core/policy/permissions.js";
import type { PreparedToolCall } from "../../../src/core/tools/prepared-tool-call.js";
import { preparedCall } from "../../support/prepared-calls.js";
import { RecordingApprover, RecordingAuditSink } from "../../support/permission-fakes.js";
import { CAN_SYMLINK_FILES } from "../../support/platform.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;
let harnessFile: string;

beforeEach(async () => {
  temp = await makeTempWorkspace();
  await writeFile(join(temp.base, "secret.txt"), "outside\n");
  await writeFile(join(temp.ws, "a"), "inside\n");
  await mkdir(join(temp.ws, ".git"));
  await writeFile(join(temp.ws, ".git", "config"), "[core]\n");
  harnessFile = join(temp.ws, "audit.log");
  await writeFile(harnessFile, "");
  await symlink(join(temp.base, "secret.txt"), join(temp.ws, "link-out"));
  await symlink(temp.base, join(temp.ws, "dir-out"), "junction");
});
afterEach(async () => {
  await temp.cleanup();
});

function context(): P04Context {
  const boundary = new NodeWorkspaceWriteBoundary({ harnessFiles: [harnessFile] });
  return {
    cwd: temp.ws,
    realWorkspaceRoot: temp.ws,
    allowedArgv: [],
    network: "disabled",
    sandbox: { kind: "isolated", network: "disabled", label: "sandbox: bwrap" },
    now: 0,
    requestTtlMs: 1000,
    newRequestId: () => "req_0000000000000001",
    classifyPath: (effect, path) => boundary.classifyNow(temp.ws, effect, path),
  };
}

const read = (path: string): PreparedToolCall => preparedCall("read_file", "read", { path });
const write = (path: string): PreparedToolCall => preparedCall("write_file", "write", { path });

describe.skipIf(!CAN_SYMLINK_FILES)("P04 checks each path where it lands", () => {
  it("a path resolved inside is allowed, and only it is called inside", () => {
    expect(authorizeP04(read("a"), context())).toEqual({
      behavior: "allow",
      scope: `read inside the workspace ${temp.ws}`,
    });
    expect(authorizeP04(write("new/b.txt"), context())).toEqual({
      behavior: "allow",
      scope: `write inside the workspace ${temp.ws}`,
    });
    // Reading git metadata or the harness's files is allowed, as the tools allow it.
    expect(authorizeP04(read(".git/config"), context())).toMatchObject({ behavior: "allow" });
    expect(authorizeP04(read("audit.log"), context())).toMatchObject({ behavior: "allow" });
  });

  it.each([
    ["../secret.txt", "names a place outside the workspace"],
    ["../ws-evil/x", "names a place outside the workspace"],
    ["/etc/passwd", "names a place outside the workspace"],
    ["link-out", "resolves outside the workspace"],
    ["dir-out/secret.txt", "resolves outside the workspace"],
  ])("read and write of %j → deny path_outside_workspace (%s)", (path, why) => {
    for (const call of [read(path), write(path)]) {
      const decision = authorizeP04(call, context());
      expect(decision).toMatchObject({ behavior: "deny", reason: "path_outside_workspace" });
      expect(decision.behavior === "deny" && decision.detail).toContain(why);
    }
  });

  it.each([
    [".git/config", "is git metadata"],
    ["audit.log", "is one of the harness's own files"],
  ])("a write to the protected %j → deny protected_path", (path, why) => {
    const decision = authorizeP04(write(path), context());
    expect(decision).toEqual({
      behavior: "deny",
      reason: "protected_path",
      detail: `${JSON.stringify(path)} ${why}, which the agent may not change`,
    });
  });

  it("a write that names no path is denied: only a path shown to land inside is allowed", () => {
    for (const args of [{ content: "x" }, { pattern: "a", content: "x" }]) {
      expect(authorizeP04(preparedCall("apply_patch", "write", args), context())).toEqual({
        behavior: "deny",
        reason: "path_outside_workspace",
        detail: "the write names no path, so nothing shows it lands inside the workspace",
      });
    }
    // A read with no path (glob's pattern) is confined by its tool, as before.
    expect(authorizeP04(preparedCall("glob", "read", { pattern: "*" }), context())).toEqual({
      behavior: "allow",
      scope: `read inside the workspace ${temp.ws}`,
    });
  });

  it("a resolver that throws denies: not known to be inside", () => {
    const broken: P04Context = {
      ...context(),
      classifyPath: () => {
        throw new Error("EIO");
      },
    };
    expect(authorizeP04(read("a"), broken)).toMatchObject({
      behavior: "deny",
      reason: "path_outside_workspace",
    });
  });

  it("through the one PermissionPolicy: the boundary denies a read outside, with its scope, and the audit never says inside", async () => {
    const audit = new RecordingAuditSink();
    const approver = new RecordingApprover(() => undefined);
    const policy = new PermissionPolicy({
      workspaceBoundary: {
        workspace: temp.ws,
        boundary: new NodeWorkspaceWriteBoundary({ harnessFiles: [harnessFile] }),
        reads: true,
      },
      authorizer: new P04Authorizer(context),
      approval: approver,
      audit,
    });
    const denied = await policy.decide(new PermissionRequest(read("../package.json")));
    const linked = await policy.decide(new PermissionRequest(read("link-out")));
    const inside = await policy.decide(new PermissionRequest(read("a")));
    expect(audit.lines()).toEqual([
      "read_file: deny (workspace-boundary) - Reading outside the workspace is forbidden",
      "read_file: deny (workspace-boundary) - Reading outside the workspace is forbidden",
      `read_file: allow (p04-policy) - Allowed by P04: read inside the workspace ${temp.ws}`,
    ]);
    expect(denied.scope).toBe('read of "../package.json" by read_file');
    expect(linked.scope).toBe('read of "link-out" by read_file');
    expect(inside.behavior).toBe("allow");
    expect(approver.requests).toEqual([]);
  });
});
