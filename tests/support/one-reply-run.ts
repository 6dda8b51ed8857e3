/**
 * A run through the real loop (`buildAgent`) in which the model sends one reply of tool calls and
 * then says "done". `deps` name the workspace and whatever the test adds (an approver, an audit
 * sink, its own command runner); by default commands go to a runner that only records them.
 */
import type { AgentDependencies } from "../../src/bootstrap/agent-dependencies.js";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import type { RunResult } from "../../src/core/runner/agent-runner.js";
import type { ChapterProfile } from "../../src/core/profiles.js";
import { RecordingCommandRunner } from "./recording-command-runner.js";
import { ScriptedModelClient, textReply, toolCallReply } from "./scripted-model.js";

export type OneReplyDependencies = Omit<AgentDependencies, "model" | "commandRunner"> &
  Partial<Pick<AgentDependencies, "commandRunner">>;

export function runOneToolReply(
  profile: ChapterProfile,
  calls: Parameters<typeof toolCallReply>[0],
  deps: OneReplyDependencies,
  prompt = "go",
): Promise<RunResult> {
  const model = new ScriptedModelClient([toolCallReply(calls), textReply("done")]);
  return buildAgent(profile, {
    model,
    commandRunner: new RecordingCommandRunner(),
    ...deps,
  }).run(prompt);
}
