/** How the conversation's `/compact`, `/clear` and `/context` reach the agent. */
import { formatContextReport } from "../../core/context/context-report.js";
import type { AgentRunner } from "../../core/runner/agent-runner.js";
import type { ContextCommands } from "../terminal/input/context-commands.js";

export function contextCommandsOf(agent: AgentRunner): ContextCommands {
  return {
    compactNow: (history, signal) => agent.compactHistory(history, signal),
    clearHistory: (history) => agent.clearHistory(history),
    describeContext: (history) => formatContextReport(agent.describeContext(history)),
  };
}
