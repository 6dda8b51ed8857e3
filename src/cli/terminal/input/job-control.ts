/**
 * Ctrl-Z and `fg` at one of our prompts. readline's own Ctrl-Z handling pauses its input when the
 * process continues: the prompt then reads nothing, and with nothing left to wait on Node ends
 * with status 0 and the run unfinished. Our prompts handle the key here instead: the terminal is
 * handed back as the shell expects it, the process stops, and when it continues the prompt takes
 * the terminal again in its own mode and redraws itself.
 */
import type { Interface } from "node:readline";
import type { TerminalInput } from "./terminal-input.js";

export interface PromptTerminal {
  /** Back to how the shell expects the terminal: cooked mode, no bracketed paste. */
  release(): void;
  /** The prompt's own mode again, its line redrawn. */
  retake(): void;
}

/**
 * Stops the process on Ctrl-Z at `reader`'s prompt and gives `terminal` back on SIGCONT. The
 * returned function ends this (call it when the prompt closes).
 */
export function stopAndContinue(reader: Interface, terminal: PromptTerminal): () => void {
  // No job control on Windows: readline ignores Ctrl-Z there too.
  if (process.platform === "win32") return () => undefined;
  // A listener of our own is what keeps readline from running its handling.
  reader.on("SIGTSTP", () => {
    terminal.release();
    // The default action stops the process here; the call returns once it continues. Where the
    // stop is not allowed (a process group no shell controls) it returns at once: either way the
    // prompt is taken back.
    process.kill(process.pid, "SIGTSTP");
    terminal.retake();
  });
  // A stop that did not come from the key (`kill -TSTP`) lets the shell put the terminal back to
  // cooked mode as well: every continue retakes it.
  const onContinue = (): void => {
    terminal.retake();
  };
  process.on("SIGCONT", onContinue);
  return () => {
    process.off("SIGCONT", onContinue);
  };
}

/**
 * Raw mode once more, even where Node already thinks it is on: libuv skips a switch to the mode it
 * last set, so it is turned off (to the terminal's saved modes) and on again.
 */
export function reapplyRawMode(input: TerminalInput): void {
  input.setRawMode?.(false);
  input.setRawMode?.(true);
}
