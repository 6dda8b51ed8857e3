import type { CommandResult, CommandRunner } from "../../core/ports/command-runner.js";
import { SandboxSetupError } from "../sandbox/index.js";

/**
 * The runner behind a required sandbox that cannot be had. The policy already denies every shell
 * call before it gets here; this refuses too, so a wiring mistake still runs nothing.
 */
export class UnavailableRunner implements CommandRunner {
  readonly shellName = "no shell (sandbox unavailable)";
  readonly #reason: string;

  constructor(reason: string) {
    this.#reason = reason;
  }

  run(): Promise<CommandResult> {
    return Promise.reject(new SandboxSetupError(this.#reason));
  }
}
