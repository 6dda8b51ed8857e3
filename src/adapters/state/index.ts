/**
 * The harness's own durable state outside the workspace (run journals, approval grants): where it
 * lives, and how it is opened so that nothing a run does can redirect it.
 */
export {
  openWorkspaceState,
  stateRootPath,
  StateDirectoryError,
  workspaceDirectoryName,
  type StateRootInputs,
  type WorkspaceState,
} from "./state-directory.js";
export {
  ApprovalStore,
  ApprovalStoreError,
  DEFAULT_GRANT_TTL_MS,
  type AnswerToken,
  type ApprovalStoreOptions,
  type RequestContext,
  type StoredRequest,
} from "./approval-store.js";
export { nodeStateFileOps, type StateFileOps } from "./state-file-ops.js";
export { HISTORY_ENTRIES, InputHistoryFile, inputHistoryPath } from "./input-history.js";
export {
  probeVerdictPath,
  readProbeVerdict,
  writeProbeVerdict,
  type ProbeVerdict,
} from "./probe-verdict-file.js";
