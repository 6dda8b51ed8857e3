import { homeDirectory } from "../../adapters/home/index.js";
import { JsonlAuditLog } from "../../adapters/audit/index.js";
import { runsDirectory } from "../../adapters/journal/index.js";
import {
  ApprovalStore,
  openWorkspaceState,
  stateRootPath,
  type AnswerToken,
} from "../../adapters/state/index.js";

import { whyRequestIsStale } from "./request-liveness.js";

export { DEFAULT_GRANT_TTL_MS } from "../../adapters/state/index.js";

/**
 * The grant store of one workspace: `<state root>/workspaces/<workspace>/approvals`. The root is
 * `--state-dir`, else `$AGENT_STATE_DIR`, else the platform's state directory. `liveRunId`: the
 * run that opens it for itself, whose own requests are never stale.
 */
export function openApprovalStore(
  workspace: string,
  stateDirFlag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
  liveRunId?: string,
): ApprovalStore {
  const root = stateRootPath({
    flag: stateDirFlag,
    env,
    platform,
    homeDirectory: homeDirectory(env),
  });
  const state = openWorkspaceState(root, workspace).directory;
  const runs = runsDirectory(state);
  return new ApprovalStore(state, {
    whyStale: (stored) => whyRequestIsStale(runs, stored, liveRunId),
  });
}

/** A person's answer (`agent approve`/`deny`), one line in the audit log at `path`. */
export async function auditApprovalAnswer(path: string, token: AnswerToken): Promise<void> {
  const log = new JsonlAuditLog({ path, chapter: 4 });
  try {
    await log.recordApprovalAnswer(token);
  } finally {
    log.close();
  }
}
