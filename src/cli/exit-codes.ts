/** The process exit codes are part of the CLI's contract with scripts and CI. */
export const EXIT = Object.freeze({
  ok: 0,
  runFailed: 1,
  config: 2,
  /** The run stopped to wait for a person's approval (`agent approve …`, then `agent resume`). */
  waiting: 3,
  /** The run answered, but every tool call it asked for was denied: likely not what was wanted. */
  allDenied: 4,
  cancelled: 130,
});
