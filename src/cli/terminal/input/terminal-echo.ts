/**
 * The terminal's echo while a turn runs. Between prompts the terminal is in cooked mode, so that
 * Ctrl-C and Ctrl-Z stay signals and keys typed ahead wait in the kernel for the next prompt
 * (message-reader.ts). But in cooked mode the terminal itself echoes those keys at the cursor:
 * into the streamed text, and an Enter moved the cursor a row down, so the draft's erase
 * (streamed-draft.ts, which counts the rows it wrote) missed its first rows and the answer was
 * printed under a broken copy of it. With echo off the keys are still held, and readline draws
 * them at the next prompt.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** The terminal's echo of typed keys, its other modes left as they are. */
export interface TerminalEcho {
  /** Echo off until the returned function turns it on again. */
  off(): () => void;
}

/** Something that says when the process goes on after a stop (the process itself). */
export interface ContinueSignal {
  on(event: "SIGCONT", listener: () => void): unknown;
  off(event: "SIGCONT", listener: () => void): unknown;
}

/** Runs `stty SETTING` on the terminal. */
export type Stty = (setting: "echo" | "-echo") => void;

/**
 * `stty` on the terminal at `input`'s descriptor: Node can only switch raw mode, which would also
 * make Ctrl-C and Ctrl-Z plain keys. Undefined where there is no such terminal (Windows has no
 * stty). After a stop and `fg` the shell may have put its own modes back (echo on), so every
 * continue turns the echo off again.
 */
export function sttyEcho(
  input: { readonly isTTY?: boolean; readonly fd?: number },
  platform: NodeJS.Platform,
  continues: ContinueSignal,
  stty?: Stty,
): TerminalEcho | undefined {
  const { fd } = input;
  if (platform === "win32" || input.isTTY !== true || fd === undefined) return undefined;
  const run = stty ?? sttyOn(fd);
  return {
    off: () => {
      const off = (): void => {
        run("-echo");
      };
      off();
      continues.on("SIGCONT", off);
      return () => {
        continues.off("SIGCONT", off);
        run("echo");
      };
    },
  };
}

/**
 * The system's stty by its full path, never looked up on PATH: a PATH holding `.` or a folder of
 * the workspace would run a `stty` the model wrote, on the host, at every turn.
 */
const STTY_PATHS = ["/bin/stty", "/usr/bin/stty"];

/** A missing stty leaves the echo as it was: spawnSync reports that, it does not throw. */
function sttyOn(fd: number): Stty {
  const stty = STTY_PATHS.find((path) => existsSync(path));
  return (setting) => {
    if (stty !== undefined) spawnSync(stty, [setting], { stdio: [fd, "ignore", "ignore"] });
  };
}

/** `work` with the echo off, and on again after it, however it ends. */
export async function withoutEcho<T>(
  echo: TerminalEcho | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (echo === undefined) return work();
  const on = echo.off();
  try {
    return await work();
  } finally {
    on();
  }
}
