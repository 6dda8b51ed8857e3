import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * A real process that exchanges two names (a directory and a link to the outside, say) as fast
 * as it can with renameat2(RENAME_EXCHANGE), so neither name is ever missing: what an approved
 * command left running on the host could do while the harness works. Linux with python3 only.
 */
export const EXCHANGE_FLIPPER =
  process.platform === "linux" && existsSync("/usr/bin/python3") ? "/usr/bin/python3" : undefined;

const EXCHANGE_LOOP = [
  "import ctypes, sys",
  "libc = ctypes.CDLL(None, use_errno=True)",
  "a, b = (p.encode() for p in sys.argv[1:3])",
  "while True: libc.renameat2(-100, a, -100, b, 2)",
].join("\n");

/** Runs `work` while `first` and `second` are exchanged, then stops the flipper. */
export async function whileExchanging(
  first: string,
  second: string,
  work: () => Promise<void>,
): Promise<void> {
  const flipper: ChildProcess = spawn(
    EXCHANGE_FLIPPER ?? "python3",
    ["-c", EXCHANGE_LOOP, first, second],
    { stdio: "ignore" },
  );
  try {
    await work();
  } finally {
    flipper.kill("SIGKILL");
    if (flipper.exitCode === null && flipper.signalCode === null) {
      await new Promise((resolve) => flipper.once("exit", resolve));
    }
  }
}
