/**
 * Operating-system processes: start a program (never through a shell), read its stdout and stderr
 * in order of arrival (stderr lines marked, secrets redacted), keep the head and the tail in bounded
 memory and stream the whole to a spill file, enforce the timeout and Ctrl-C, and kill its tree.
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
export { removedAtExit } from "./removed-at-exit.js";
