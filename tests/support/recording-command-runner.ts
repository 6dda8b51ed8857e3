import type {
  CommandOptions,
  CommandResult,
  CommandRunner,
} from "../../src/core/ports/command-runner.js";

/** A shell stand-in for agent tests that must prove a command never ran. */
export class RecordingCommandRunner implements CommandRunner {
  readonly shellName = "test-shell";
  readonly commands: string[] = [];
  /** For each command, whether it came without a person's approval at the prompt. */
  readonly unapproved: boolean[] = [];

  run(command: string, _cwd?: string, options?: CommandOptions): Promise<CommandResult> {
    this.commands.push(command);
    this.unapproved.push(options?.unapproved === true);
    return Promise.resolve({
      exitCode: 0,
      output: `ran: ${command}`,
      truncated: false,
      timedOut: false,
    });
  }
}
