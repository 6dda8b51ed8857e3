/**
 * SIGTERM (`timeout`, `docker stop`, a service manager) and SIGHUP (the terminal closed) end the
 * agent with the exit code a shell reports for them, 128 + the signal's number, as their default
 * action would, but through `process.exit`, so that the 'exit' listeners run first: the sandbox
 * probe's temp workspace is removed (adapters/process/removed-at-exit.ts) as after Ctrl-C. With
 * no listener node dies of the signal at once and runs none of them. The run itself ends as after
 * `kill -9`: its journal keeps it resumable, a host command's process group is stopped by its
 * orphan guard, a sandboxed one dies with bwrap.
 */
export const TERMINATION_SIGNALS = Object.freeze({ SIGHUP: 1, SIGTERM: 15 });

export interface SignalledProcess {
  once(signal: keyof typeof TERMINATION_SIGNALS, listener: () => void): unknown;
  exit(code: number): never;
}

/** Call once at start. */
export function exitOnTerminationSignals(target: SignalledProcess): void {
  for (const [signal, number] of Object.entries(TERMINATION_SIGNALS)) {
    target.once(signal as keyof typeof TERMINATION_SIGNALS, () => target.exit(128 + number));
  }
}
