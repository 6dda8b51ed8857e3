/**
 * The workspace filesystem port (core/ports/filesystem.ts) on Node's `fs`: every path is resolved inside
 * the workspace (links included) before it is touched, git metadata (by name or by layout) and the
 * harness's own files are never written, reads are bounded, writes are atomic. The path-safety
 * checks are shared with the shell and the sandbox; the harness's own files (audit log, recording,
 * replay) are opened here too, once and safely.
 */
export {
  EDIT_LIMIT_BYTES,
  GLOB_RESULT_LIMIT,
  NodeWorkspaceFileSystem,
  NodeWorkspaceWriteBoundary,
  READ_LIMIT_BYTES,
  type ProtectedFiles,
  type WorkspaceFileSystemOptions,
} from "./node-filesystem.js";
export { isWithinRoot } from "./safe-path.js";
export { linkText } from "./link-text.js";
export { NodeWorkspaceRestorer } from "./workspace-restorer.js";
export { prepareFileOperations } from "./prepare-file-operations.js";
export {
  HARNESS_DIRECTORY,
  OUTPUTS_DIRECTORY,
  WorkspaceOutputStore,
  fileStem,
} from "./output-files.js";
export { isGitDirectoryName } from "./git-names.js";
export { GIT_LAYOUT_ENTRIES, hasGitDirectoryLayout, pointerFileTarget } from "./git-directories.js";
export {
  hostLoadedPaths,
  sandboxCoverage,
  whereItLeads,
  type HostFilesSource,
  type HostLoadedPath,
  type NamedHostPath,
} from "./host-loaded-paths.js";
export {
  gitDelegatedPaths,
  gitDelegatedPathsAround,
  globalConfigDelegates,
  globalGitConfigFiles,
  repositoryAt,
  type GitDelegatedPath,
  type GitRepositoryLocation,
} from "./git-delegated-paths.js";
export { errorCode, O_NOFOLLOW } from "./fs-errors.js";
export { openRegularFileSync, readAtMostSync, UnsafeFileError } from "./safe-open.js";
export {
  AGENT_INSTALL_ENTRIES,
  agentInstallPaths,
  appendDurably,
  appendWritten,
  flushHarnessFile,
  HarnessFileError,
  openHarnessOutput,
  readHarnessInput,
  readHarnessLines,
  readHarnessInputIn,
  truncateHarnessFile,
  useHarnessInput,
  type HarnessInputFile,
  type HarnessLineEnds,
  type HarnessInputOptions,
  type HarnessOutput,
} from "./harness-files.js";
export {
  closedToThisProcess,
  loadedLaterPlaces,
  loadedThrough,
  LoadedLaterScanError,
  LOADED_LATER_BUDGET,
  LOADED_LATER_DEPTH,
  LOADED_LATER_ENTRIES,
  type FolderListing,
  type LoadedLaterClassifier,
  type LoadedLaterPlace,
} from "./loaded-later-walk.js";
export { gitHookScripts, type GitHookScript } from "./git-hooks.js";
