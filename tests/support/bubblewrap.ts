import { homedir } from "node:os";
import { BubblewrapRunner } from "../../src/adapters/sandbox/index.js";
import { buildCommandEnvironment, resolveExecutable } from "../../src/adapters/shell/index.js";
import { withEnglishMessages } from "./english-messages.js";

/** bubblewrap is on this Linux machine's PATH: the tests that need the real sandbox run. */
export const HAS_BWRAP =
  process.platform === "linux" &&
  resolveExecutable("bwrap", { env: process.env, workspace: "/nonexistent", platform: "linux" }) !==
    undefined;

/** For test names: why a test that needs the real sandbox is skipped where it is. */
export const BWRAP_REASON = "(needs bwrap on PATH: Linux only)";

/** The real sandbox over `workspace` for bash, network off, with this process's environment (its messages in English). */
export function hostEnvironmentRunner(options: {
  readonly bwrapPath: string;
  readonly bash: string;
  readonly workspace: string;
  readonly harnessFiles?: readonly string[];
  readonly keepUnchanged?: readonly string[];
  readonly keepAbsent?: readonly string[];
  readonly placeholderLedger?: string;
  readonly loadedLater?: (name: string) => string | undefined;
  readonly loadedLaterFor?: "every-command" | "unapproved-commands";
}): BubblewrapRunner {
  return new BubblewrapRunner({
    bwrapPath: options.bwrapPath,
    shell: { executable: options.bash, kind: "bash" },
    workspace: options.workspace,
    home: homedir(),
    network: false,
    environment: buildCommandEnvironment(withEnglishMessages(process.env), {
      passEnv: [],
      platform: "linux",
    }),
    ...(options.harnessFiles === undefined ? {} : { harnessFiles: options.harnessFiles }),
    ...(options.keepUnchanged === undefined ? {} : { keepUnchanged: options.keepUnchanged }),
    ...(options.keepAbsent === undefined ? {} : { keepAbsent: options.keepAbsent }),
    ...(options.placeholderLedger === undefined
      ? {}
      : { placeholderLedger: options.placeholderLedger }),
    ...(options.loadedLater === undefined ? {} : { loadedLater: options.loadedLater }),
    ...(options.loadedLaterFor === undefined ? {} : { loadedLaterFor: options.loadedLaterFor }),
  });
}
