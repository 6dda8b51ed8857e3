import { describe, expect, it } from "vitest";
import { RunWaitingError } from "../../../src/core/common/agent-errors.js";
import type { ApprovalRequest } from "../../../src/core/policy/approval-request.js";
import {
  GrantApprovalProvider,
  type ApprovalGrants,
} from "../../../src/core/grants/grant-approval.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { preparedCall } from "../../support/prepared-calls.js";
import { RecordingApprover } from "../../support/permission-fakes.js";

const ASK: ApprovalRequest = {
  id: "req_00000000000000aa",
  actionDigest: "d".repeat(64),
  summary: 'run_command ["npm","test"]',
  risks: ["npm and node run arbitrary code"],
  expiresAt: "2026-01-02T00:00:00.000Z",
};

/** An in-memory store that logs each step, so the order is asserted. */
class LoggingGrants implements ApprovalGrants {
  readonly log: string[] = [];
  readonly grants = new Set<string>();
  readonly denials = new Set<string>();
  saveApprovalRequest(_runId: string, request: ApprovalRequest): void {
    this.log.push(`save ${request.id}`);
  }
  approve(requestId: string): void {
    this.log.push(`approve ${requestId}`);
    this.grants.add(ASK.actionDigest);
  }
  deny(): void {
    this.log.push("deny");
  }
  consumeApprovalGrant(_runId: string, digest: string): { requestId: string } | undefined {
    this.log.push("consume grant");
    return this.grants.delete(digest) ? { requestId: ASK.id } : undefined;
  }
  consumeDenial(_runId: string, digest: string): { requestId: string } | undefined {
    this.log.push("consume denial");
    return this.denials.delete(digest) ? { requestId: ASK.id } : undefined;
  }
  /** Requests still waiting, by call id: a read, so it is not logged. */
  readonly waiting = new Map<string, ApprovalRequest>();
  waitingRequest(_runId: string, callId: string): ApprovalRequest | undefined {
    return this.waiting.get(callId);
  }
  /** Grants given to a call before, by call id: a read, so it is not logged. */
  readonly byCall = new Map<string, { requestId: string; actionDigest: string }>();
  grantForCall(_runId: string, callId: string) {
    return this.byCall.get(callId);
  }
}

function askRequest(): PermissionRequest {
  return new PermissionRequest(
    preparedCall("run_command", "execute", { command: "npm" }),
  ).withProposedDecision(PermissionDecision.ask("on the allowlist", "p04-policy", ASK));
}

/** The provider under test, run "run", grants living a second; `terminal` is the person, if any. */
function providerFor(grants: LoggingGrants, terminal?: RecordingApprover): GrantApprovalProvider {
  return new GrantApprovalProvider({
    grants,
    runId: "run",
    grantTtlMs: 1000,
    ...(terminal === undefined ? {} : { interactive: terminal }),
  });
}

/** A person at the terminal who answers every question with `decision`. */
function terminalAnswering(decision: PermissionDecision): RecordingApprover {
  return new RecordingApprover(() => decision);
}

describe("GrantApprovalProvider", () => {
  it("with nobody at a terminal and no grant: saves the request, then waits (throws), asking no one", async () => {
    const grants = new LoggingGrants();
    const provider = providerFor(grants);
    const error = await provider.decide(askRequest()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunWaitingError);
    expect((error as RunWaitingError).callId).toBe("call_1");
    expect((error as RunWaitingError).request).toMatchObject({
      id: ASK.id,
      actionDigest: ASK.actionDigest,
    });
    expect(grants.log).toEqual(["consume denial", "consume grant", `save ${ASK.id}`]);
  });

  it("resumed before the answer, waits again on the request still waiting: its id, nothing saved", async () => {
    const grants = new LoggingGrants();
    const earlier = { ...ASK, id: "req_00000000000000ee" };
    grants.waiting.set("call_1", earlier);
    const error = await providerFor(grants)
      .decide(askRequest())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunWaitingError);
    expect((error as RunWaitingError).request.id).toBe(earlier.id);
    expect((error as RunWaitingError).message).toBe(
      `Waiting for approval: request ${earlier.id} (agent approve ${earlier.id}, or agent deny ${earlier.id})`,
    );
    expect(grants.log).toEqual(["consume denial", "consume grant"]);
    // A request for another action than the call is now does not count: a new one is saved,
    // and the person hears which one it replaces.
    grants.waiting.set("call_1", { ...earlier, actionDigest: "e".repeat(64) });
    const again = await providerFor(grants)
      .decide(askRequest())
      .catch((caught: unknown) => caught);
    expect((again as RunWaitingError).request.id).toBe(ASK.id);
    expect((again as RunWaitingError).message).toBe(
      `Waiting for approval: request ${ASK.id} (agent approve ${ASK.id}, or agent deny ${ASK.id}); it replaces request ${earlier.id}, since what the call would run changed`,
    );
    expect(grants.log.at(-1)).toBe(`save ${ASK.id}`);
  });

  it("an existing grant allows without asking anyone", async () => {
    const grants = new LoggingGrants();
    grants.grants.add(ASK.actionDigest);
    const terminal = terminalAnswering(PermissionDecision.deny("no", "terminal-approval"));
    const provider = providerFor(grants, terminal);
    const decision = await provider.decide(askRequest());
    expect(decision).toMatchObject({
      behavior: "allow",
      source: "approval-grant",
      reason: `Approved: grant for request ${ASK.id} consumed (one-time)`,
    });
    expect(terminal.requests).toEqual([]);
  });

  it("a y at the terminal becomes a grant that this same authorization consumes", async () => {
    const grants = new LoggingGrants();
    const provider = providerFor(
      grants,
      terminalAnswering(
        PermissionDecision.allow("User approved this tool call", "terminal-approval"),
      ),
    );
    const decision = await provider.decide(askRequest());
    expect(decision.source).toBe("approval-grant");
    expect(grants.log).toEqual([
      "consume denial",
      "consume grant",
      `save ${ASK.id}`,
      `approve ${ASK.id}`,
      "consume grant",
    ]);
    expect(grants.grants.size).toBe(0);
  });

  it("a no at the terminal denies and records no grant", async () => {
    const grants = new LoggingGrants();
    const provider = providerFor(
      grants,
      terminalAnswering(PermissionDecision.deny("User denied this tool call", "terminal-approval")),
    );
    expect(await provider.decide(askRequest())).toMatchObject({
      behavior: "deny",
      source: "terminal-approval",
    });
    expect(grants.log).toEqual(["consume denial", "consume grant"]);
  });

  it("a call approved for another action than it is now is refused as changed: nothing saved, nobody asked", async () => {
    const grants = new LoggingGrants();
    grants.byCall.set("call_1", {
      requestId: "req_00000000000000a0",
      actionDigest: "e".repeat(64),
    });
    const terminal = terminalAnswering(PermissionDecision.allow("yes", "terminal-approval"));
    const decision = await providerFor(grants, terminal).decide(askRequest());
    expect(decision).toMatchObject({
      behavior: "deny",
      source: "approval-grant",
      scope: "this call (request req_00000000000000a0)",
      reason:
        "request req_00000000000000a0 approved this call, but the action it is now differs from the one approved (a script or file it runs, npm's configuration, where it runs, or where a path lands changed since), so nothing was run; call the tool again to ask about the action as it is now",
    });
    // The same code the spawn recheck gives (p04-recheck.ts): one contract for a changed action.
    expect(decision.toToolResult().errorCode).toBe("action_changed_since_approval");
    expect(terminal.requests).toEqual([]);
    expect(grants.log).toEqual(["consume denial", "consume grant"]);
  });

  it("a call's earlier grant for the very action it is now is simply consumed", async () => {
    const grants = new LoggingGrants();
    grants.grants.add(ASK.actionDigest);
    grants.byCall.set("call_1", { requestId: ASK.id, actionDigest: ASK.actionDigest });
    expect(await providerFor(grants).decide(askRequest())).toMatchObject({ behavior: "allow" });
  });

  it("a recorded denial denies, before any grant or question", async () => {
    const grants = new LoggingGrants();
    grants.denials.add(ASK.actionDigest);
    grants.grants.add(ASK.actionDigest);
    const provider = providerFor(grants);
    expect((await provider.decide(askRequest())).reason).toBe(
      `approval_denied: the person denied request ${ASK.id}`,
    );
  });

  it("an ask without an approval request is denied", async () => {
    const provider = new GrantApprovalProvider({
      grants: new LoggingGrants(),
      runId: "run",
      grantTtlMs: 1,
    });
    const request = new PermissionRequest(preparedCall("x", "execute")).withProposedDecision(
      PermissionDecision.ask("plain ask", "shell-default"),
    );
    expect(await provider.decide(request)).toMatchObject({
      behavior: "deny",
      reason: "No approval request to answer",
    });
  });

  it("a terminal that cannot ask (the request too long to show) leaves it saved, waiting, as with nobody there", async () => {
    const grants = new LoggingGrants();
    const waiting = new RunWaitingError("call_1", { ...ASK }, "request_too_long_to_show: …");
    const terminal = { decide: () => Promise.reject(waiting) };
    await expect(
      new GrantApprovalProvider({
        grants,
        runId: "run",
        grantTtlMs: 1000,
        interactive: terminal,
      }).decide(askRequest()),
    ).rejects.toBe(waiting);
    expect(grants.log).toEqual(["consume denial", "consume grant", `save ${ASK.id}`]);
  });

  it("a terminal that fails otherwise saves nothing", async () => {
    const grants = new LoggingGrants();
    const terminal = { decide: () => Promise.reject(new Error("closed")) };
    await expect(
      new GrantApprovalProvider({
        grants,
        runId: "run",
        grantTtlMs: 1000,
        interactive: terminal,
      }).decide(askRequest()),
    ).rejects.toThrow("closed");
    expect(grants.log).toEqual(["consume denial", "consume grant"]);
  });
});
