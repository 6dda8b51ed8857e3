/**
 * What the end-to-end tests that stop a run and resume it share: a state directory beside the
 * workspace (so a test can read the journals), the environment that points the agent at it, and
 * the screen of a conversation waiting at its prompt.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { AgentFixture } from "./agent-fixture.js";
import { serverEnv } from "./cli-process.js";

export function stateDirOf(e2e: AgentFixture): string {
  return join(e2e.dir.root, "state");
}

export function stateEnv(
  e2e: AgentFixture,
  extra: Record<string, string> = {},
): Record<string, string> {
  return serverEnv(e2e.server.baseURL, { AGENT_STATE_DIR: stateDirOf(e2e), ...extra });
}

/** The runs folder of the one workspace the state directory holds. */
export async function runsDirOf(e2e: AgentFixture): Promise<string> {
  const workspaces = join(stateDirOf(e2e), "workspaces");
  const [only] = await readdir(workspaces);
  return join(workspaces, only ?? "", "runs");
}

/** A conversation waits at its `>` prompt: the last row that is not empty. */
export function atPrompt(rows: readonly string[]): boolean {
  return rows.filter((row) => row !== "").at(-1) === ">";
}
