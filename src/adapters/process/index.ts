/**
 * Operating-system processes: start a program (never through a shell), read its stdout and stderr
 * in order of arrival with a byte cap, enforce the timeout and Ctrl-C, and kill its whole tree.
 * The shell runners and the sandbox are built on it; it implements no core port by itself.
 */
export {
  captureOptions,
  runProcess,
  STDERR_MARK,
  unmarked,
  type InputPipe,
  type ProcessSpec,
  type StatusPipeResult,
} from "./process-runner.js";
export { killTreeStrategyFor, windowsSystemRoot, type KillTreeStrategy } from "./kill-tree.js";
