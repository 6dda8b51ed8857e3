import { homedir } from "node:os";
import { ApprovalStore, openWorkspaceState, stateRootPath } from "../adapters/state/index.js";

/**
 * The grant store of one workspace: `<state root>/workspaces/<workspace>/approvals`. The root is
 * `--state-dir`, else `$AGENT_STATE_DIR`, else the platform's state directory.
 */
export function openApprovalStore(
  workspace: string,
  stateDirFlag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): ApprovalStore {
  const root = stateRootPath({ flag: stateDirFlag, env, platform, homeDirectory: homedir() });
  return new ApprovalStore(openWorkspaceState(root, workspace).directory);
}
