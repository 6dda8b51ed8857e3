import type { CommandResult, CommandRunner } from "../../src/core/ports/command-runner.js";

/** A shell stand-in for agent tests that must prove a command never ran. */
export class RecordingCommandRunner implements CommandRunner {
  readonly shellName = "test-shell";
  readonly commands: string[] = [];

  run(command: string): Promise<CommandResult> {
    this.commands.push(command);
    return Promise.resolve({
      exitCode: 0,
      output: `ran: ${command}`,
      truncated: false,
      timedOut: false,
    });
  }
}
