/**
 * A run through the real loop (`buildAgent`) in which the model sends one reply of tool calls and
 * then says "done": no approver, no audit sink, and a command runner that only records.
 */
import { buildAgent } from "../../src/bootstrap.js";
import type { RunResult } from "../../src/core/agent-runner.js";
import type { ChapterProfile } from "../../src/core/profiles.js";
import { RecordingCommandRunner } from "./recording-command-runner.js";
import { ScriptedModelClient, textReply, toolCallReply } from "./scripted-model.js";

export function runOneToolReply(
  profile: ChapterProfile,
  workspace: string,
  calls: Parameters<typeof toolCallReply>[0],
  prompt = "go",
): Promise<RunResult> {
  const model = new ScriptedModelClient([toolCallReply(calls), textReply("done")]);
  const agent = buildAgent(profile, {
    model,
    workspace,
    commandRunner: new RecordingCommandRunner(),
  });
  return agent.run(prompt);
}
