/** The process exit codes are part of the CLI's contract with scripts and CI. */
export const EXIT = Object.freeze({
  ok: 0,
  runFailed: 1,
  config: 2,
  /** P04: the run waits for a person's approval (`agent approve …`); nothing of the call ran. */
  waiting: 3,
  cancelled: 130,
});
