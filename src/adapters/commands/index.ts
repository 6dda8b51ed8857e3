/**
 * What a command reads and runs in the workspace, said by one reader (command-reach.ts): P04's
 * allowlist (its package.json verification scripts and a checked-in `.agent/commands.json`, read
 * safely once at start) and what its approvals bind, what a daily `a` binds for a shell command
 * (shell-binding.ts), and which file a package's install-time script (install-script-files.ts) or a git hook
 * (hook-script-files.ts) runs.
 */
export {
  COMMANDS_FILE,
  CommandAllowlistError,
  commandsFileSchema,
  ensureHarnessDirectory,
  loadCommandAllowlist,
  refusedNowNotes,
  VERIFICATION_SCRIPTS,
  type AllowedCommand,
  type CommandAllowlist,
} from "./command-allowlist.js";
export { hookScriptRun } from "./hook-script-files.js";
export { installScriptRun } from "./install-script-files.js";
export { NpmScriptError, npmScriptRows, npmScriptText, shellTextReach } from "./npm-script.js";
export { expandedWord } from "./script-words.js";
export { shellCommandBinding } from "./shell-binding.js";
export { npmWorkspaceFolders } from "./npm-workspaces.js";
