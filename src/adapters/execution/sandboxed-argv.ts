import {
  CommandStartError,
  type ArgvRunner,
  type CommandOptions,
  type CommandResult,
} from "../../core/ports/command-runner.js";
import type { BubblewrapRunner } from "../sandbox/index.js";
import { resolveExecutable, type ExecutableLookup } from "../shell/index.js";

/**
 * P04's commands: an argv, run only in bubblewrap. The program is looked up on the trusted PATH
 * (entries inside the workspace are skipped, so a planted `./npm` is never it) and passed to bwrap
 * by its absolute path; its arguments reach it as they are, with no shell to reinterpret them.
 */
export class SandboxedArgvRunner implements ArgvRunner {
  readonly #sandbox: Pick<BubblewrapRunner, "runArgv">;
  readonly #lookup: ExecutableLookup;
  readonly environmentNames: readonly string[] | undefined;

  constructor(
    sandbox: Pick<BubblewrapRunner, "runArgv"> & { readonly environmentNames?: readonly string[] },
    lookup: ExecutableLookup,
  ) {
    this.#sandbox = sandbox;
    this.#lookup = lookup;
    this.environmentNames = sandbox.environmentNames;
  }

  async run(argv: readonly string[], cwd: string, options: CommandOptions): Promise<CommandResult> {
    const [name, ...args] = argv;
    let program: string | undefined;
    try {
      program = name === undefined ? undefined : resolveExecutable(name, this.#lookup);
    } catch {
      program = undefined;
    }
    if (program === undefined) {
      throw new CommandStartError(
        `${JSON.stringify(name ?? "")} was not found on the trusted PATH (outside the workspace)`,
      );
    }
    return this.#sandbox.runArgv([program, ...args], cwd, options);
  }
}

/** Where no sandbox can be had, P04 runs no command: the policy denies first; this refuses too. */
export class RefusingArgvRunner implements ArgvRunner {
  readonly #reason: string;

  constructor(reason: string) {
    this.#reason = reason;
  }

  run(): Promise<CommandResult> {
    return Promise.reject(new CommandStartError(this.#reason));
  }
}
