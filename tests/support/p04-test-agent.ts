/**
 * Chapter 4's agent as the grant tests build it: a real grant store, a sandbox that is assumed
 * (FixedEnvironment), an audit that records, and the argv runner the test watches. What each test
 * varies is its allowlist, what an approved command does, and who answers at a terminal.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { npmScriptText } from "../../src/adapters/commands/index.js";
import { ApprovalStore } from "../../src/adapters/state/index.js";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import type { ApprovalProvider } from "../../src/core/policy/approval.js";
import type { CommandResult } from "../../src/core/ports/command-runner.js";
import { P04 } from "../../src/core/profiles.js";
import { FixedEnvironment, RecordingAuditSink } from "./permission-fakes.js";
import { RecordingCommandRunner } from "./recording-command-runner.js";
import type { ScriptedModelClient } from "./scripted-model.js";
import { makeTempWorkspace, type TempWorkspace } from "./temp-workspace.js";

export const P04_TEST_SANDBOX = {
  kind: "isolated",
  network: "disabled",
  label: "sandbox: bwrap (network off)",
} as const;

export interface P04TestAgent {
  readonly workspace: string;
  readonly store: ApprovalStore;
  readonly runId: string;
  readonly replies: ScriptedModelClient;
  readonly allowedArgv: readonly (readonly string[])[];
  /** What an approved command does; absent, none may run (the test fails if one does). */
  readonly run?: (argv: readonly string[]) => Promise<CommandResult>;
  /** The person at a terminal; absent, an ask waits for `agent approve`. */
  readonly person?: ApprovalProvider;
}

export function p04TestAgent(options: P04TestAgent) {
  const { workspace } = options;
  return buildAgent(P04, {
    model: options.replies,
    workspace,
    commandRunner: new RecordingCommandRunner(),
    auditSink: new RecordingAuditSink(),
    executionEnvironment: new FixedEnvironment(() => P04_TEST_SANDBOX),
    ...(options.person === undefined ? {} : { approvalProvider: options.person }),
    grants: {
      argvRunner: {
        run: options.run ?? (() => Promise.reject(new Error("no command runs"))),
      },
      allowedArgv: options.allowedArgv,
      grants: options.store,
      runId: options.runId,
      network: false,
      grantTtlMs: 60_000,
      scriptOf: (argv) => npmScriptText(workspace, argv),
    },
  });
}

/** An approved command that records its argv in `started` and says "ok". */
export function recordingRun(started: string[][]) {
  return (argv: readonly string[]): Promise<CommandResult> => {
    started.push([...argv]);
    return Promise.resolve({ exitCode: 0, output: "ok", truncated: false, timedOut: false });
  };
}

/**
 * The setup a chapter 4 test file of writes shares: a temp workspace and a real grant store for
 * each test (closed and removed after it), and `agent(runId, replies, person?)` on them with an
 * empty allowlist. Call at the top of a test file.
 */
export function useP04Workspace() {
  let temp: TempWorkspace | undefined;
  let store: ApprovalStore | undefined;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
    const state = join(temp.base, "state");
    mkdirSync(state, { mode: 0o700 });
    store = new ApprovalStore(state);
  });
  afterEach(async () => {
    store?.close();
    await temp?.cleanup();
  });
  const fixture = {
    get ws(): string {
      if (temp === undefined) throw new Error("The workspace is only there inside a test");
      return temp.ws;
    },
    get store(): ApprovalStore {
      if (store === undefined) throw new Error("The store is only there inside a test");
      return store;
    },
    agent: (runId: string, replies: ScriptedModelClient, person?: ApprovalProvider) =>
      p04TestAgent({
        workspace: fixture.ws,
        store: fixture.store,
        runId,
        replies,
        allowedArgv: [],
        ...(person === undefined ? {} : { person }),
      }),
  };
  return fixture;
}
