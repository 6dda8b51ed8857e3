/**
 * What a profile whose approvals are grants (P04) shares between its default-deny policy and its
 * `run_command` tool within one run, and the dependencies only that path needs.
 */
import { randomBytes } from "node:crypto";
import { NodeWorkspaceWriteBoundary } from "../adapters/filesystem/index.js";
import { ApprovedActions } from "../core/grants/approved-actions.js";
import type { P04Context } from "../core/grants/policy-context.js";
import type { ExecutionEnvironment } from "../core/policy/execution-environment.js";
import type { ChapterProfile } from "../core/profiles.js";
import type { AgentDependencies, GrantDependencies } from "./agent-dependencies.js";
import { BootstrapError } from "./bootstrap-error.js";
import { externalToolFacts } from "./listed-external-tools.js";
import { loadedLaterProbes } from "./loaded-later-probes.js";
import { protectedFiles } from "./protected-files.js";

export const DEFAULT_REQUEST_TTL_MS = 24 * 60 * 60 * 1000;

/** What the default-deny policy and `run_command` share within one run. */
export interface GrantPath {
  /** The policy's view of the run, taken afresh at each decision. */
  readonly context: () => P04Context;
  /** Each consumed grant's digest, checked again against what would run just before the spawn. */
  readonly approved: ApprovedActions;
  /**
   * Shared by the default-deny policy's workspace check (reads included) and the context's
   * `classifyPath`, `writeLanding`, `loadedThrough` and `laterRun`, so they resolve against one kept
   * workspace root. One per grant path, not per tool path: the person's rules build their own boundary
   * (personal-rules-of.ts) and the file tools their own NodeWorkspaceFileSystem, each from the
   * same protected files.
   */
  readonly boundary: NodeWorkspaceWriteBoundary;
}

export function grantPath(profile: ChapterProfile, deps: AgentDependencies): GrantPath {
  const grants = grantsOf(deps);
  const externalTools = externalToolFacts(profile, deps);
  const now = grants.now ?? Date.now;
  const environment = commandEnvironmentOf(deps);
  const boundary = new NodeWorkspaceWriteBoundary(protectedFiles(deps));
  const context = (): P04Context => ({
    cwd: deps.workspace,
    realWorkspaceRoot: deps.workspace,
    allowedArgv: grants.allowedArgv,
    network: grants.network ? "enabled" : "disabled",
    sandbox: environment.status(),
    now: now(),
    requestTtlMs: grants.requestTtlMs ?? DEFAULT_REQUEST_TTL_MS,
    newRequestId: () => `req_${randomBytes(8).toString("hex")}`,
    classifyPath: (effect, path) => boundary.classifyNow(deps.workspace, effect, path),
    ...loadedLaterProbes(boundary, deps.workspace),
    ...(grants.scriptOf === undefined ? {} : { scriptOf: grants.scriptOf }),
    ...(externalTools.size === 0 ? {} : { externalTools }),
  });
  return { context, approved: new ApprovedActions(), boundary };
}

/** Where none was given, commands have nowhere to run: the P04 policy and run_command both see it. */
const NO_EXECUTION_ENVIRONMENT: ExecutionEnvironment = Object.freeze({
  status: () => ({ kind: "unavailable", reason: "no execution environment was given" }) as const,
});

export function commandEnvironmentOf(deps: AgentDependencies): ExecutionEnvironment {
  return deps.executionEnvironment ?? NO_EXECUTION_ENVIRONMENT;
}

export function grantsOf(deps: AgentDependencies): GrantDependencies {
  if (deps.grants === undefined) {
    throw new BootstrapError("P04 needs its dependencies (deps.grants)");
  }
  return deps.grants;
}
