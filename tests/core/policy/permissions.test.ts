import { describe, expect, it } from "vitest";
import { RunCancelledError } from "../../../src/core/common/agent-errors.js";
import {
  PermissionContractError,
  PermissionDecision,
  type PermissionBehavior,
} from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { PermissionRule } from "../../../src/core/policy/permission-rule.js";
import {
  strongestDecision,
  PermissionPolicy,
  type PermissionPolicyOptions,
} from "../../../src/core/policy/permissions.js";
import type { ToolEffect } from "../../../src/core/tools/tool-definition.js";
import { CallCannotSucceedError } from "../../../src/core/tools/call-cannot-succeed.js";
import { toolError } from "../../../src/core/tools/tool-result.js";
import {
  FakeWriteBoundary,
  FixedEnvironment,
  RecordingApprover,
  RecordingAuditSink,
} from "../../support/permission-fakes.js";
import { preparedCall } from "../../support/prepared-calls.js";

interface Summary {
  readonly behavior: PermissionBehavior;
  readonly reason: string;
  readonly source: string;
}

function summary(decision: PermissionDecision): Summary {
  return { behavior: decision.behavior, reason: decision.reason, source: decision.source };
}

const WORKSPACE = "/ws";
const DEFAULT_ALLOW: Summary = {
  behavior: "allow",
  reason: "No permission rule blocked the request",
  source: "default",
};
const OUTSIDE: Summary = {
  behavior: "deny",
  reason: "Writing outside the workspace is forbidden",
  source: "workspace-boundary",
};
const SHELL_ASK: Summary = {
  behavior: "ask",
  reason: "Shell execution requires approval",
  source: "shell-default",
};
const APPROVED: Summary = {
  behavior: "allow",
  reason: "Approved in test",
  source: "test-approver",
};

function approving(): RecordingApprover {
  return new RecordingApprover(() => PermissionDecision.allow(APPROVED.reason, APPROVED.source));
}

function alwaysRule(name: string, behavior: PermissionBehavior): PermissionRule {
  return new PermissionRule({
    name,
    behavior,
    reason: `${name} says ${behavior}`,
    matches: () => true,
  });
}

/** A boundary for which only paths under `inside/` are within the workspace. */
function insideOnlyBoundary(): FakeWriteBoundary {
  return new FakeWriteBoundary((path) => path.startsWith("inside/"));
}

interface Harness {
  readonly approver: RecordingApprover;
  readonly audit: RecordingAuditSink;
  readonly decide: (
    name: string,
    effect: ToolEffect,
    args?: Record<string, unknown>,
    recommendations?: readonly PermissionDecision[],
  ) => Promise<PermissionDecision>;
}

function harness(
  options: Omit<PermissionPolicyOptions, "approver" | "audit"> = {},
  approver: RecordingApprover = approving(),
): Harness {
  const audit = new RecordingAuditSink();
  const policy = new PermissionPolicy({ ...options, approval: approver, audit });
  return {
    approver,
    audit,
    decide: (name, effect, args = {}, recommendations = []) =>
      policy.decide(new PermissionRequest(preparedCall(name, effect, args), { recommendations })),
  };
}

describe("precedence: literal rule arrays → final decision", () => {
  const rows: [string, PermissionBehavior[], Summary, number][] = [
    ["no rules", [], DEFAULT_ALLOW, 0],
    ["only passthrough", ["passthrough"], DEFAULT_ALLOW, 0],
    ["one allow", ["allow"], { behavior: "allow", reason: "r1 says allow", source: "r1" }, 0],
    [
      "first allow wins",
      ["allow", "allow"],
      { behavior: "allow", reason: "r1 says allow", source: "r1" },
      0,
    ],
    [
      "passthrough then allow",
      ["passthrough", "allow"],
      { behavior: "allow", reason: "r2 says allow", source: "r2" },
      0,
    ],
    ["one ask goes to the approver", ["ask"], APPROVED, 1],
    ["ask beats allow", ["allow", "ask"], APPROVED, 1],
    ["ask beats passthrough", ["ask", "passthrough"], APPROVED, 1],
    ["one deny", ["deny"], { behavior: "deny", reason: "r1 says deny", source: "r1" }, 0],
    [
      "deny beats allow",
      ["allow", "deny"],
      { behavior: "deny", reason: "r2 says deny", source: "r2" },
      0,
    ],
    [
      "deny beats ask, no prompt",
      ["ask", "deny"],
      { behavior: "deny", reason: "r2 says deny", source: "r2" },
      0,
    ],
    [
      "deny beats passthrough",
      ["passthrough", "deny"],
      { behavior: "deny", reason: "r2 says deny", source: "r2" },
      0,
    ],
    [
      "deny beats everything",
      ["allow", "ask", "passthrough", "deny"],
      { behavior: "deny", reason: "r4 says deny", source: "r4" },
      0,
    ],
    [
      "first deny wins",
      ["deny", "ask", "deny"],
      { behavior: "deny", reason: "r1 says deny", source: "r1" },
      0,
    ],
  ];

  it.each(rows)("%s", async (_label, behaviors, expected, approverCalls) => {
    const rules = behaviors.map((behavior, index) => alwaysRule(`r${index + 1}`, behavior));
    const { approver, audit, decide } = harness({ rules });
    const final = await decide("glob", "read");
    expect(summary(final)).toEqual(expected);
    expect(approver.requests).toHaveLength(approverCalls);
    expect(audit.entries.map((entry) => summary(entry.decision))).toEqual([expected]);
  });

  it("the approver is asked about the first ask", async () => {
    const rules = [alwaysRule("r1", "allow"), alwaysRule("r2", "ask"), alwaysRule("r3", "ask")];
    const { approver, decide } = harness({ rules });
    await decide("glob", "read");
    const proposed = approver.requests[0]?.proposedDecision;
    expect(proposed && summary(proposed)).toEqual({
      behavior: "ask",
      reason: "r2 says ask",
      source: "r2",
    });
  });

  const mergeRows: [PermissionBehavior[], Summary][] = [
    [
      [],
      {
        behavior: "passthrough",
        reason: "No permission participant made a decision",
        source: "default",
      },
    ],
    [
      ["passthrough"],
      {
        behavior: "passthrough",
        reason: "No permission participant made a decision",
        source: "default",
      },
    ],
    [["passthrough", "allow"], { behavior: "allow", reason: "c2", source: "s2" }],
    [["allow", "ask"], { behavior: "ask", reason: "c2", source: "s2" }],
    [["ask", "deny", "allow"], { behavior: "deny", reason: "c2", source: "s2" }],
  ];

  it.each(mergeRows)("strongestDecision(%j)", (behaviors, expected) => {
    const candidates = behaviors.map(
      (behavior, index) => new PermissionDecision(behavior, `c${index + 1}`, `s${index + 1}`),
    );
    expect(summary(strongestDecision(candidates))).toEqual(expected);
  });
});

describe("plain reads", () => {
  it("pass with the default allow when no rule objects, with one audit entry and no prompt", async () => {
    const { approver, audit, decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary: insideOnlyBoundary() },
    });
    expect(summary(await decide("glob", "read", { path: "../anywhere" }))).toEqual(DEFAULT_ALLOW);
    expect(approver.requests).toEqual([]);
    expect(audit.lines()).toEqual([
      "glob: allow (default) - No permission rule blocked the request",
    ]);
  });
});

describe("workspace boundary", () => {
  it("asks the boundary with the workspace and the path, and denies outside", async () => {
    const boundary = insideOnlyBoundary();
    const { approver, audit, decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary },
    });
    expect(summary(await decide("write_file", "write", { path: "../outside.txt" }))).toEqual(
      OUTSIDE,
    );
    expect(boundary.questions).toEqual([{ workspace: WORKSPACE, path: "../outside.txt" }]);
    expect(approver.requests).toEqual([]);
    expect(audit.lines()).toEqual([
      "write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
    ]);
  });

  it("no rule, recommendation or approver can loosen it", async () => {
    const { approver, audit, decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary: insideOnlyBoundary() },
      rules: [alwaysRule("allow-all", "allow"), alwaysRule("confirm", "ask")],
    });
    const final = await decide("write_file", "write", { path: "/etc/passwd" }, [
      PermissionDecision.allow("Hook says fine", "hook"),
    ]);
    expect(summary(final)).toEqual(OUTSIDE);
    expect(approver.requests).toEqual([]);
    expect(audit.entries.map((entry) => summary(entry.decision))).toEqual([OUTSIDE]);
  });

  it.each<[string, Summary]>([
    [
      "git-metadata",
      {
        behavior: "deny",
        reason: "Writing git metadata is forbidden: a hook or config there would run on the host",
        source: "protected-path",
      },
    ],
    [
      "harness-file",
      {
        behavior: "deny",
        reason:
          "Writing the harness's own files (its audit log, recording or install) is forbidden",
        source: "protected-path",
      },
    ],
  ])("a protected path (%s) is a hard deny before rules and approval", async (target, expected) => {
    const { approver, audit, decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary: new FakeWriteBoundary(() => target) },
      rules: [alwaysRule("allow-all", "allow"), alwaysRule("confirm", "ask")],
    });
    const final = await decide("write_file", "write", { path: ".git/hooks/pre-commit" }, [
      PermissionDecision.allow("Hook says fine", "hook"),
    ]);
    expect(summary(final)).toEqual(expected);
    expect(approver.requests).toEqual([]);
    expect(audit.entries.map((entry) => summary(entry.decision))).toEqual([expected]);
    expect(final.toToolResult()).toEqual(toolError("permission_denied", expected.reason));
  });

  it("inside the workspace adds no candidate, so the rules decide", async () => {
    const { approver, decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary: insideOnlyBoundary() },
      rules: [alwaysRule("confirm", "ask")],
    });
    expect(summary(await decide("write_file", "write", { path: "inside/note.txt" }))).toEqual(
      APPROVED,
    );
    expect(approver.requests).toHaveLength(1);
  });

  it("inside with no rules is the default allow", async () => {
    const { decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary: insideOnlyBoundary() },
    });
    expect(summary(await decide("write_file", "write", { path: "inside/a" }))).toEqual(
      DEFAULT_ALLOW,
    );
  });

  it.each<[string, unknown]>([
    ["a number", 7],
    ["null", null],
    ["an object", { toString: "inside/x" }],
    ["an array", ["inside/x"]],
  ])("a non-string path (%s) is invalid and the boundary is not asked", async (_label, path) => {
    const boundary = insideOnlyBoundary();
    const { approver, decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary },
      rules: [alwaysRule("allow-all", "allow")],
    });
    expect(summary(await decide("write_file", "write", { path }))).toEqual({
      behavior: "deny",
      reason: "Write path is invalid",
      source: "workspace-boundary",
    });
    expect(boundary.questions).toEqual([]);
    expect(approver.requests).toEqual([]);
  });

  it.each<[string, Record<string, unknown>]>([
    ["no path at all", { content: "x" }],
    ["its target under another name", { pattern: "inside/x", content: "x" }],
  ])("a write with %s is invalid: no write passes the boundary unnamed", async (_label, args) => {
    const boundary = insideOnlyBoundary();
    const { approver, decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary },
      rules: [alwaysRule("allow-all", "allow")],
    });
    expect(summary(await decide("apply_patch", "write", args))).toEqual({
      behavior: "deny",
      reason: "Write path is invalid",
      source: "workspace-boundary",
    });
    expect(boundary.questions).toEqual([]);
    expect(approver.requests).toEqual([]);
  });

  it.each<[string, (path: string) => unknown]>([
    [
      "throws",
      () => {
        throw new Error("ELOOP");
      },
    ],
    ["rejects", () => Promise.reject(new Error("EACCES"))],
  ])("a boundary that %s denies as unresolvable", async (_label, answer) => {
    const { approver, decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary: new FakeWriteBoundary(answer) },
      rules: [alwaysRule("allow-all", "allow")],
    });
    expect(summary(await decide("write_file", "write", { path: "inside/a" }))).toEqual({
      behavior: "deny",
      reason: "Write path could not be resolved safely",
      source: "workspace-boundary",
    });
    expect(approver.requests).toEqual([]);
  });

  it.each<[string, unknown]>([
    ["1", 1],
    ['"yes"', "yes"],
    ["an object", {}],
    ["undefined", undefined],
  ])("a boundary answering %s (not true) is not inside", async (_label, answer) => {
    const { decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary: new FakeWriteBoundary(() => answer) },
    });
    expect(summary(await decide("write_file", "write", { path: "inside/a" }))).toEqual(OUTSIDE);
  });

  it("is not consulted for read or execute tools", async () => {
    const boundary = new FakeWriteBoundary(() => false);
    const { decide } = harness({ workspaceBoundary: { workspace: WORKSPACE, boundary } });
    expect(summary(await decide("read_file", "read", { path: "../x" }))).toEqual(DEFAULT_ALLOW);
    expect(summary(await decide("shell", "execute", { path: "../x" }))).toEqual(APPROVED);
    expect(boundary.questions).toEqual([]);
  });
});

describe("shell default", () => {
  it.each(["ls", "rm -rf /", "", "echo hi && curl http://127.0.0.1", "cat README.md"])(
    "every execute call asks, whatever its text (%j)",
    async (command) => {
      const { approver, audit, decide } = harness({ rules: [alwaysRule("trust-shell", "allow")] });
      expect(summary(await decide("shell", "execute", { command }))).toEqual(APPROVED);
      expect(approver.requests).toHaveLength(1);
      const proposed = approver.requests[0]?.proposedDecision;
      expect(proposed && summary(proposed)).toEqual(SHELL_ASK);
      expect(audit.entries).toHaveLength(1);
    },
  );

  it("without an approver the ask is an implicit denial", async () => {
    const audit = new RecordingAuditSink();
    const policy = new PermissionPolicy({ audit });
    const final = await policy.decide(new PermissionRequest(preparedCall("shell", "execute")));
    expect(summary(final)).toEqual({
      behavior: "deny",
      reason: "Approval was not explicitly granted: Shell execution requires approval",
      source: "approval",
    });
    expect(audit.entries.map((entry) => entry.decision)).toEqual([final]);
  });
});

describe("recommendations", () => {
  it.each<[PermissionBehavior, Summary, number]>([
    ["allow", { behavior: "allow", reason: "Hook allow", source: "hook" }, 0],
    ["deny", { behavior: "deny", reason: "Hook deny", source: "hook" }, 0],
    ["ask", APPROVED, 1],
    ["passthrough", DEFAULT_ALLOW, 0],
  ])("a %s recommendation joins the merge", async (behavior, expected, approverCalls) => {
    const { approver, decide } = harness();
    const hook = new PermissionDecision(behavior, `Hook ${behavior}`, "hook");
    expect(summary(await decide("glob", "read", {}, [hook]))).toEqual(expected);
    expect(approver.requests).toHaveLength(approverCalls);
  });

  it("an allow recommendation cannot beat a deny rule", async () => {
    const { decide } = harness({ rules: [alwaysRule("no-globs", "deny")] });
    const final = await decide("glob", "read", {}, [
      PermissionDecision.allow("Hook allow", "hook"),
    ]);
    expect(summary(final)).toEqual({
      behavior: "deny",
      reason: "no-globs says deny",
      source: "no-globs",
    });
  });
});

describe("rules", () => {
  it("a matching rule's decision carries the rule name as source; a non-match adds nothing", async () => {
    const seen: string[] = [];
    const rules = [
      new PermissionRule({
        name: "confirm-file-write",
        behavior: "ask",
        reason: "File writes require explicit approval from chapter 3 onward",
        matches: (request) => {
          seen.push(request.toolName);
          return request.toolName === "write_file" || request.toolName === "edit_file";
        },
      }),
    ];
    const { approver, decide } = harness({ rules });
    expect(summary(await decide("glob", "read"))).toEqual(DEFAULT_ALLOW);
    expect(summary(await decide("edit_file", "write", { path: "a" }))).toEqual(APPROVED);
    expect(seen).toEqual(["glob", "edit_file"]);
    const proposed = approver.requests[0]?.proposedDecision;
    expect(proposed && summary(proposed)).toEqual({
      behavior: "ask",
      reason: "File writes require explicit approval from chapter 3 onward",
      source: "confirm-file-write",
    });
  });

  it.each<[string, () => unknown]>([
    [
      "throws",
      () => {
        throw new Error("bug");
      },
    ],
    ["returns a Promise", () => Promise.resolve(false)],
    ["returns 1", () => 1],
    ["returns a string", () => "no"],
    ["returns undefined", () => undefined],
  ])("a matcher that %s denies, named after the rule", async (_label, matches) => {
    const rule = new PermissionRule({
      name: "block-secrets",
      behavior: "deny",
      reason: "Secrets stay put",
      matches: matches as () => boolean,
    });
    const { approver, decide } = harness({ rules: [alwaysRule("allow-all", "allow"), rule] });
    expect(summary(await decide("glob", "read"))).toEqual({
      behavior: "deny",
      reason: "Permission rule failed: block-secrets",
      source: "block-secrets",
    });
    expect(approver.requests).toEqual([]);
  });

  it("rules passed in are copied: adding one later changes nothing", async () => {
    const rules = [alwaysRule("r1", "allow")];
    const { decide } = harness({ rules });
    rules.push(alwaysRule("late", "deny"));
    expect(summary(await decide("glob", "read")).source).toBe("r1");
  });
});

describe("approval", () => {
  const IMPLICIT: Summary = {
    behavior: "deny",
    reason: "Approval was not explicitly granted: Shell execution requires approval",
    source: "approval",
  };
  const INVALID: Summary = {
    behavior: "deny",
    reason: "Approval provider returned an invalid decision",
    source: "approval",
  };
  const FAILED: Summary = {
    behavior: "deny",
    reason: "Approval provider failed; request denied",
    source: "approval",
  };

  it.each<[string, () => unknown, Summary]>([
    [
      "a plain {behavior:'allow'}",
      () => ({ behavior: "allow", reason: "ok", source: "x" }),
      INVALID,
    ],
    ["true", () => true, INVALID],
    ["the string allow", () => "allow", INVALID],
    ["undefined", () => undefined, INVALID],
    [
      "a prototype look-alike",
      () =>
        Object.assign(Object.create(PermissionDecision.prototype) as object, {
          behavior: "allow",
          reason: "ok",
          source: "x",
        }),
      INVALID,
    ],
    ["ask", () => PermissionDecision.ask("Still unsure", "test-approver"), IMPLICIT],
    [
      "passthrough",
      () => new PermissionDecision("passthrough", "No opinion", "test-approver"),
      IMPLICIT,
    ],
    [
      "a throw",
      () => {
        throw new Error("tty gone");
      },
      FAILED,
    ],
    ["a rejection", () => Promise.reject(new Error("tty gone")), FAILED],
    [
      "deny",
      () => PermissionDecision.deny("User denied this tool call", "terminal-approval"),
      {
        behavior: "deny",
        reason: "User denied this tool call",
        source: "terminal-approval",
      },
    ],
  ])("an approver answering %s denies", async (_label, answer, expected) => {
    const { approver, audit, decide } = harness({}, new RecordingApprover(answer));
    expect(summary(await decide("shell", "execute", { command: "ls" }))).toEqual(expected);
    expect(approver.requests).toHaveLength(1);
    expect(audit.entries.map((entry) => summary(entry.decision))).toEqual([expected]);
  });

  it("a genuine allow is taken as is", async () => {
    const allow = PermissionDecision.allow("User approved this tool call", "terminal-approval");
    const { audit, decide } = harness({}, new RecordingApprover(() => allow));
    expect(await decide("shell", "execute", { command: "ls" })).toBe(allow);
    expect(audit.entries[0]?.decision).toBe(allow);
  });

  it("covers one call only: nothing is remembered", async () => {
    const { approver, decide } = harness();
    await decide("shell", "execute", { command: "ls" });
    await decide("shell", "execute", { command: "ls" });
    expect(approver.requests).toHaveLength(2);
  });

  it("the approver's request carries the call, the proposed ask and no label without an environment", async () => {
    const { approver, decide } = harness();
    await decide("shell", "execute", { command: "ls" });
    const request = approver.requests[0];
    expect(request?.toolName).toBe("shell");
    expect(request?.call.arguments).toEqual({ command: "ls" });
    expect(request?.proposedDecision && summary(request.proposedDecision)).toEqual(SHELL_ASK);
    expect(request?.executionEnvironment).toBeUndefined();
  });

  it("a cancelled prompt ends the run: the error propagates and nothing is audited", async () => {
    const { audit, decide } = harness(
      {},
      new RecordingApprover(() => Promise.reject(new RunCancelledError())),
    );
    await expect(decide("shell", "execute", { command: "ls" })).rejects.toBeInstanceOf(
      RunCancelledError,
    );
    expect(audit.entries).toEqual([]);
  });
});

describe("execution environment", () => {
  it("labels execute requests for the approver and the audit", async () => {
    const environment = new FixedEnvironment(() => ({
      kind: "host",
      label: "sandbox: none — runs on the host",
    }));
    const { approver, audit, decide } = harness({ executionEnvironment: environment });
    expect(summary(await decide("shell", "execute", { command: "ls" }))).toEqual(APPROVED);
    expect(approver.requests.map((request) => request.executionEnvironment)).toEqual([
      "sandbox: none — runs on the host",
    ]);
    expect(audit.entries.map((entry) => entry.request.executionEnvironment)).toEqual([
      "sandbox: none — runs on the host",
    ]);
  });

  it("is not consulted for reads and leaves them unlabelled", async () => {
    const environment = new FixedEnvironment(() => ({
      kind: "isolated",
      network: "disabled",
      label: "sandbox: bwrap",
    }));
    const { audit, decide } = harness({ executionEnvironment: environment });
    await decide("glob", "read");
    expect(environment.calls).toBe(0);
    expect(audit.entries[0]?.request.executionEnvironment).toBeUndefined();
  });

  it("unavailable denies with source sandbox and never asks the approver", async () => {
    const environment = new FixedEnvironment(() => ({
      kind: "unavailable",
      reason: "Sandbox required but bwrap is not installed",
    }));
    const { approver, audit, decide } = harness({
      executionEnvironment: environment,
      rules: [alwaysRule("trust-shell", "allow")],
    });
    const final = await decide("shell", "execute", { command: "ls" }, [
      PermissionDecision.allow("Hook allow", "hook"),
    ]);
    expect(summary(final)).toEqual({
      behavior: "deny",
      reason: "Sandbox required but bwrap is not installed",
      source: "sandbox",
    });
    expect(approver.requests).toEqual([]);
    expect(audit.entries.map((entry) => entry.request.executionEnvironment)).toEqual([
      "sandbox: unavailable — Sandbox required but bwrap is not installed",
    ]);
  });

  it.each<[string, () => unknown]>([
    [
      "throws",
      () => {
        throw new Error("probe failed");
      },
    ],
    ["returns undefined", () => undefined],
    ["returns an unknown kind", () => ({ kind: "cloud", label: "x" })],
    ["returns host without a label", () => ({ kind: "host" })],
    ["returns unavailable without a reason", () => ({ kind: "unavailable", reason: "" })],
  ])("a status that %s is unavailable", async (_label, status) => {
    const { approver, decide } = harness({ executionEnvironment: new FixedEnvironment(status) });
    expect(summary(await decide("shell", "execute", { command: "ls" }))).toEqual({
      behavior: "deny",
      reason: "Execution environment could not be determined",
      source: "sandbox",
    });
    expect(approver.requests).toEqual([]);
  });
});

describe("audit", () => {
  it("records every final decision once, in order", async () => {
    const { audit, decide } = harness({
      workspaceBoundary: { workspace: WORKSPACE, boundary: insideOnlyBoundary() },
    });
    const finals = [
      await decide("glob", "read"),
      await decide("write_file", "write", { path: "../x" }),
      await decide("shell", "execute", { command: "ls" }),
    ];
    expect(audit.entries.map((entry) => entry.decision)).toEqual(finals);
    expect(audit.lines()).toEqual([
      "glob: allow (default) - No permission rule blocked the request",
      "write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
      "shell: allow (test-approver) - Approved in test",
    ]);
  });

  it("audits a call its precheck refuses as a deny, and asks nobody", async () => {
    const approver = approving();
    const audit = new RecordingAuditSink();
    const policy = new PermissionPolicy({
      rules: [alwaysRule("confirm-file-write", "ask")],
      approval: approver,
      audit,
    });
    const cannot = new CallCannotSucceedError(
      toolError("edit_no_match", "old_string was not found in a.ts"),
    );
    const request = new PermissionRequest(
      preparedCall("edit_file", "write", { path: "a.ts", content: "y" }),
      {},
      { beforeAsking: () => Promise.reject(cannot) },
    );
    await expect(policy.decide(request)).rejects.toBe(cannot);
    expect(approver.requests).toEqual([]);
    expect(audit.lines()).toEqual([
      "edit_file: deny (precheck) - The call cannot succeed, so nobody is asked: Error [edit_no_match]: old_string was not found in a.ts",
    ]);
  });

  it("a failing audit rejects the decision itself", async () => {
    const diskFull = new Error("disk full");
    const audit = new RecordingAuditSink(diskFull);
    const policy = new PermissionPolicy({ audit });
    await expect(policy.decide(new PermissionRequest(preparedCall("glob", "read")))).rejects.toBe(
      diskFull,
    );
    expect(audit.entries).toHaveLength(1);
  });
});

describe("PermissionPolicy object", () => {
  it("is frozen", () => {
    expect(Object.isFrozen(new PermissionPolicy())).toBe(true);
  });

  it("takes the seed's approval and audit, and refuses an option it does not have", () => {
    const approval = new RecordingApprover(() => PermissionDecision.allow("yes", "person"));
    expect(() => new PermissionPolicy({ approval, audit: new RecordingAuditSink() })).not.toThrow();
    const options = { approval, writeBoundary: {}, approver: approval };
    const misnamed = () => new PermissionPolicy(options);
    expect(misnamed).toThrow(PermissionContractError);
    expect(misnamed).toThrow(
      "PermissionPolicy has no option writeBoundary, approver (its options: workspaceBoundary, rules, approval, audit, executionEnvironment, authorizer, keepsContent)",
    );
  });
});
