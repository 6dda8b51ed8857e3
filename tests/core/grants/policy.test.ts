import { describe, expect, it } from "vitest";
import { actionDigest, actionPreimage } from "../../../src/core/policy/approval-request.js";
import type { ExecutionEnvironmentStatus } from "../../../src/core/policy/execution-environment.js";
import { P04Authorizer } from "../../../src/core/grants/p04-authorizer.js";
import type { P04Context } from "../../../src/core/grants/policy-context.js";
import { authorizeP04 } from "../../../src/core/grants/policy.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { PermissionPolicy } from "../../../src/core/policy/permissions.js";
import type { PreparedToolCall } from "../../../src/core/tools/prepared-tool-call.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { createFetchUrlTool } from "../../../src/features/fetch-url-tool.js";
import { createRunCommandTool } from "../../../src/features/run-command-tool.js";
import { probeTool } from "../../support/prepared-calls.js";
import {
  RecordingApprover,
  RecordingAuditSink,
  commandChecksThatRefuse,
} from "../../support/permission-fakes.js";

const ISOLATED: ExecutionEnvironmentStatus = {
  kind: "isolated",
  network: "disabled",
  label: "sandbox: bwrap (network off, writable: /ws)",
};

function context(overrides: Partial<P04Context> = {}): P04Context {
  return {
    cwd: "/ws",
    realWorkspaceRoot: "/ws",
    allowedArgv: [
      ["npm", "test"],
      ["npm", "run", "lint"],
    ],
    network: "disabled",
    sandbox: ISOLATED,
    now: Date.parse("2026-01-01T00:00:00.000Z"),
    requestTtlMs: 60_000,
    newRequestId: () => "req_0123456789abcdef",
    // /ws is not on this disk: every path the model names here is taken as inside, and the real
    // resolution is tested against a real workspace below.
    classifyPath: () => "inside",
    ...overrides,
  };
}

const registry = new ToolRegistry([
  createRunCommandTool({
    runner: { run: () => Promise.reject(new Error("never runs here")) },
    workspace: "/ws",
    ...commandChecksThatRefuse(),
  }),
  createFetchUrlTool(),
  probeTool("read_thing", "read"),
  probeTool("write_thing", "write"),
  probeTool("other_exec", "execute"),
]);

function prepared(name: string, args: Record<string, unknown>): PreparedToolCall {
  const outcome = registry
    .snapshot()
    .prepare({ id: "call_1", name, arguments: JSON.stringify(args) });
  if (!outcome.ok) throw new Error(outcome.result.content);
  return outcome.call;
}

describe("the seed's checks: authorizeP04", () => {
  it("an allowed test argv is ask, with the request bound to the action", () => {
    const decision = authorizeP04(
      prepared("run_command", { command: "npm", args: ["test"] }),
      context(),
    );
    const digest = actionDigest({
      profile: "P04",
      tool: "run_command",
      input: { command: "npm", args: ["test"] },
      cwd: "/ws",
      network: "disabled",
      sandbox: ISOLATED.label,
      script: null,
    });
    expect(decision).toEqual({
      behavior: "ask",
      request: {
        id: "req_0123456789abcdef",
        actionDigest: digest,
        summary:
          'run_command ["npm","test"] in /ws · effect execute · sandbox: bwrap (network off, writable: /ws)',
        risks: [
          "npm runs arbitrary code: the program being on the allowlist is not a safety boundary; what the code it runs does is what you approve",
          "it can create, change or delete any file in the workspace (not its git metadata nor the harness's own files; a new git repository it makes, whose config and hooks git runs there, is reported after it)",
        ],
        expiresAt: "2026-01-01T00:01:00.000Z",
      },
    });
  });

  it("names the program a request runs in its risk, not npm and node for every one", () => {
    const decision = authorizeP04(
      prepared("run_command", { command: "python3", args: ["-m", "unittest"] }),
      context({ allowedArgv: [["python3", "-m", "unittest"]] }),
    );
    expect(decision.behavior).toBe("ask");
    expect(decision.behavior === "ask" ? decision.request.risks[0] : undefined).toBe(
      "python3 runs arbitrary code: the program being on the allowlist is not a safety boundary; what the code it runs does is what you approve",
    );
  });

  it.each([[["test", "--", "--watch"]], [["run", "lint", "--fix"]], [["run"]], [["TEST"]]])(
    "changed args %j → deny argv_not_allowed",
    (args) => {
      const decision = authorizeP04(prepared("run_command", { command: "npm", args }), context());
      expect(decision).toMatchObject({ behavior: "deny", reason: "argv_not_allowed" });
    },
  );

  it("an external tool → deny, whatever the allowlist", () => {
    expect(
      authorizeP04(prepared("fetch_url", { url: "https://example.com" }), context()),
    ).toMatchObject({ behavior: "deny", reason: "network_or_external_effect_not_allowed" });
  });

  it("network enabled → deny, even for an allowed argv", () => {
    const call = prepared("run_command", { command: "npm", args: ["test"] });
    expect(authorizeP04(call, context({ network: "enabled" }))).toMatchObject({
      behavior: "deny",
      reason: "network_or_external_effect_not_allowed",
    });
  });

  it.each<ExecutionEnvironmentStatus>([
    { kind: "host", label: "sandbox: none — runs on the host (sandbox off)" },
    { kind: "unavailable", reason: "bwrap missing" },
  ])("no sandbox ($kind) → deny before anyone is asked", (sandbox) => {
    const call = prepared("run_command", { command: "npm", args: ["test"] });
    expect(authorizeP04(call, context({ sandbox }))).toMatchObject({
      behavior: "deny",
      reason: "sandbox_unavailable",
    });
  });

  it.each([
    [{ command: "./npm", args: ["test"] }],
    [{ command: "npm test", args: [] }],
    [{ command: "/usr/bin/npm", args: ["test"] }],
    [{ command: "npm", args: ["te\u0000st"] }],
  ])("invalid command input %j → deny invalid_command_input", (args) => {
    expect(authorizeP04(prepared("run_command", args), context())).toMatchObject({
      behavior: "deny",
      reason: "invalid_command_input",
    });
  });

  it("reads and writes are authorized by workspace path; any other tool is no_matching_policy", () => {
    expect(authorizeP04(prepared("read_thing", { path: "a" }), context())).toEqual({
      behavior: "allow",
      scope: "read inside the workspace /ws",
    });
    expect(authorizeP04(prepared("write_thing", { path: "a" }), context())).toEqual({
      behavior: "allow",
      scope: "write inside the workspace /ws",
    });
    expect(authorizeP04(prepared("other_exec", { command: "x" }), context())).toMatchObject({
      behavior: "deny",
      reason: "no_matching_policy",
    });
    // The path decides, not the effect: outside by name, outside through a link (as the disk's
    // resolution says), and protected. tests/core/grants/policy-paths.test.ts does the same on a
    // real workspace with the adapter's own resolution.
    for (const effect of ["read", "write"]) {
      const tool = `${effect}_thing`;
      expect(authorizeP04(prepared(tool, { path: "../a" }), context())).toMatchObject({
        behavior: "deny",
        reason: "path_outside_workspace",
      });
      expect(
        authorizeP04(prepared(tool, { path: "link" }), context({ classifyPath: () => "outside" })),
      ).toMatchObject({ behavior: "deny", reason: "path_outside_workspace" });
    }
    expect(
      authorizeP04(
        prepared("write_thing", { path: ".git/config" }),
        context({ classifyPath: () => "git-metadata" }),
      ),
    ).toMatchObject({ behavior: "deny", reason: "protected_path" });
  });
});

describe("a script the harness cannot read", () => {
  it("is denied as script_unreadable before anyone is asked, never bound as no script", () => {
    const decision = authorizeP04(
      prepared("run_command", { command: "npm", args: ["test"] }),
      context({
        scriptOf: () => {
          throw new Error("npm would read the workspace's package.json, and the harness cannot");
        },
      }),
    );
    expect(decision).toEqual({
      behavior: "deny",
      reason: "script_unreadable",
      detail: "npm would read the workspace's package.json, and the harness cannot",
    });
  });
});

describe("actionDigest", () => {
  const base = {
    profile: "P04",
    tool: "run_command",
    input: { command: "npm", args: ["test"] },
    cwd: "/ws",
    network: "disabled",
    sandbox: ISOLATED.label,
    script: "vitest run",
  } as const;

  it("hashes the documented canonical preimage", () => {
    expect(actionPreimage(base)).toBe(
      '{"cwd":"/ws","input":{"args":["test"],"command":"npm"},"network":"disabled","profile":"P04","sandbox":"sandbox: bwrap (network off, writable: /ws)","script":"vitest run","tool":"run_command","v":1}',
    );
    expect(actionDigest(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ["args", { input: { command: "npm", args: ["test", "x"] } }],
    ["cwd", { cwd: "/ws2" }],
    ["network", { network: "enabled" }],
    ["sandbox", { sandbox: "sandbox: bwrap (network on, writable: /ws)" }],
    ["profile", { profile: "P05" }],
    ["tool", { tool: "shell" }],
    ["script", { script: "vitest run; curl evil" }],
    ["script's absence", { script: null }],
  ] as const)("changes with the %s", (_, change) => {
    expect(actionDigest({ ...base, ...change })).not.toBe(actionDigest(base));
  });
});

describe("P04 inside the one PermissionPolicy", () => {
  function policy(approver: RecordingApprover, audit: RecordingAuditSink): PermissionPolicy {
    return new PermissionPolicy({
      authorizer: new P04Authorizer(() => context()),
      approval: approver,
      audit,
      executionEnvironment: { status: () => ISOLATED },
    });
  }

  it("an allowlisted command reaches the approver with its ApprovalRequest, ahead of the shell default", async () => {
    const approver = new RecordingApprover(() =>
      PermissionDecision.allow("granted", "approval-grant"),
    );
    const audit = new RecordingAuditSink();
    const decision = await policy(approver, audit).decide(
      new PermissionRequest(prepared("run_command", { command: "npm", args: ["test"] })),
    );
    expect(decision.behavior).toBe("allow");
    expect(approver.requests).toHaveLength(1);
    expect(approver.requests[0]?.proposedDecision?.source).toBe("p04-policy");
    expect(approver.requests[0]?.proposedDecision?.reason).toBe(
      "The command is on the allowlist; a person still approves each run (the allowlist is not a safety boundary)",
    );
    expect(approver.requests[0]?.proposedDecision?.approvalRequest?.id).toBe(
      "req_0123456789abcdef",
    );
    expect(audit.lines()).toEqual(["run_command: allow (approval-grant) - granted"]);
  });

  it("changed args and external tools are denied with the approver never called", async () => {
    const approver = new RecordingApprover(() => PermissionDecision.allow("no", "x"));
    const audit = new RecordingAuditSink();
    const subject = policy(approver, audit);
    const changed = await subject.decide(
      new PermissionRequest(prepared("run_command", { command: "npm", args: ["test", "-u"] })),
    );
    const external = await subject.decide(
      new PermissionRequest(prepared("fetch_url", { url: "http://127.0.0.1/" })),
    );
    expect(changed.toToolResult().content).toBe(
      'Error [policy_denied]: argv_not_allowed: ["npm","test","-u"] is not exactly on the allowlist (see agent commands)',
    );
    expect(external.toToolResult().content).toBe(
      "Error [policy_denied]: network_or_external_effect_not_allowed: fetch_url reaches outside this machine; P04 never allows an external effect",
    );
    expect(approver.requests).toEqual([]);
    expect(subject.boundaryOf(changed)).toBe("policy");
  });

  it("an authorizer that throws denies", async () => {
    const approver = new RecordingApprover(() => PermissionDecision.allow("no", "x"));
    const subject = new PermissionPolicy({
      authorizer: {
        name: "broken",
        decide: () => {
          throw new Error("boom");
        },
      },
      approval: approver,
    });
    const decision = await subject.decide(
      new PermissionRequest(prepared("read_thing", { path: "a" })),
    );
    expect(decision).toMatchObject({
      behavior: "deny",
      reason: "Permission policy failed: broken",
    });
    expect(approver.requests).toEqual([]);
  });
});
