import { rmSync } from "node:fs";

/**
 * Removes `directory` (recursively) when the process exits, until the returned `forget` is
 * called. For a temp directory whose asynchronous removal an early exit would skip: Ctrl-C ends a
 * run with `process.exit` at once (src/cli.ts), and node runs no pending I/O after that, only its
 * 'exit' listeners, synchronously; SIGTERM and SIGHUP end it the same way (src/cli/
 * termination-signals.ts). SIGKILL runs no listener: it leaves the directory, as any crash would.
 * Call `forget` once the directory is gone.
 */
export function removedAtExit(directory: string): () => void {
  const remove = (): void => {
    try {
      rmSync(directory, { recursive: true, force: true });
    } catch {
      // leaving: nothing more can be done, and an exit must not throw
    }
  };
  process.once("exit", remove);
  return () => {
    process.off("exit", remove);
  };
}
