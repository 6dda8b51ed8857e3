/**
 * The workspace's command allowlist (P04's `allowedArgv`): its package.json verification scripts
 * and a checked-in `.agent/commands.json`, read safely once at start.
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
export { installScriptRun } from "./install-script-files.js";
export { NpmScriptError, npmScriptRows, npmScriptText, shellTextReach } from "./npm-script.js";
export { expandedWord } from "./script-words.js";
