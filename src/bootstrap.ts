/**
 * The composition root: the one module the CLI imports to have things built or opened. From plain
 * settings and the terminal's ports it composes a run (`composeRun`), a dry run (`composeExplain`)
 * and the stores the subcommands read; src/bootstrap/ holds its parts. The CLI turns argv into
 * settings and owns the terminal; nothing it imports from here hands it an adapter to construct.
 */

// Runs and dry runs.
export { composeRun, type ComposedRun } from "./bootstrap/compose-run.js";
export { composeExplain } from "./bootstrap/compose-explain.js";
export { DEFAULT_MAX_TURNS } from "./bootstrap/build-agent.js";
// How long one command may run when the person sets no limit (`--command-timeout`).
export { DEFAULT_SHELL_TIMEOUT_MS as DEFAULT_COMMAND_TIMEOUT_MS } from "./features/shell-tool.js";
export { refuseUnusablePersonalRules } from "./bootstrap/unusable-personal-rules.js";
export type { Host } from "./bootstrap/host.js";
export type { ResumePlan } from "./bootstrap/open/journal-session.js";
export type {
  ExecutionSettings,
  ModelRetryNotice,
  RunPorts,
  RunSettings,
} from "./bootstrap/run-settings.js";
export type { SwitchableModel } from "./bootstrap/model/switchable-model.js";

// What a run keeps: journals, their locks, grants and the conversation's input history.
export {
  countStoredRuns,
  listStoredRuns,
  openRunStore,
  stateRootFor,
} from "./bootstrap/open/run-store.js";
export {
  existingJournal,
  isRunId,
  lockAndReplayRun,
  modelInUse,
  newestRun,
  runToResume,
} from "./bootstrap/open/resume-plan.js";
export {
  auditApprovalAnswer,
  DEFAULT_GRANT_TTL_MS,
  openApprovalStore,
} from "./bootstrap/open/approval-state.js";
export { openInputHistory, type InputHistory } from "./bootstrap/open/input-history.js";
export {
  undoLine,
  undoStoredRun,
  type UndoDecision,
  type UndoReport,
} from "./bootstrap/undo-run.js";
export { instructionsChangeNotice } from "./bootstrap/open/project-instructions.js";
export { loadCommandAllowlist, refusedNowNotes } from "./bootstrap/p04-run.js";
export { checkMcpServers, type McpServerReport } from "./bootstrap/external-tools.js";
export type { McpServerState } from "./adapters/mcp/index.js";

// The person's settings file and the defaults `agent config` names.
export { loadPersonSettings } from "./bootstrap/open/settings-file.js";
export {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MODEL,
  DEFAULT_TIMEOUT_MS,
} from "./adapters/model/index.js";
export {
  SETTING_NAMES,
  type FileSettings,
  type LoadedSettings,
  type McpServersSetting,
  type SettingName,
} from "./adapters/settings/index.js";

// The adapters own these rules; the CLI reads its flags with them.
export {
  CREDENTIAL_PATHS,
  DEFAULT_RESOURCE_LIMITS,
  describeLimits,
  parseResourceLimits,
  ResourceLimitError,
  type ResourceLimits,
} from "./adapters/sandbox/index.js";
export { passEnvNotices } from "./adapters/shell/index.js";
