/**
 * `agent: <message>`: how the harness speaks on stderr, written in one place. The message is
 * escaped, so text from the model, a server or a file cannot move the cursor or pass for another
 * of the harness's lines.
 */
import { harnessRows, type HarnessOutput } from "./harness-rows.js";
import { escapeForPrompt } from "./terminal-text.js";

export function agentLine(message: string): string {
  return `agent: ${escapeForPrompt(message)}\n`;
}

/**
 * Writes one `agent: ` line to `output` (stderr, or the conversation's output): on a terminal
 * broken into rows between words (harness-rows.ts), elsewhere as `agentLine` has it.
 */
export function sayAgent(output: HarnessOutput, message: string): void {
  output.write(`${harnessRows(output, `agent: ${escapeForPrompt(message)}`)}\n`);
}
