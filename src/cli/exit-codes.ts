/** The process exit codes are part of the CLI's contract with scripts and CI. */
export const EXIT = Object.freeze({
  ok: 0,
  runFailed: 1,
  config: 2,
  cancelled: 130,
});
