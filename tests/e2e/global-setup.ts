/**
 * Builds the CLI once before any end-to-end test, so every test drives the same bundle,
 * `dist/agent.cjs`, that the installed `agent` and `npm run agent` run. Set AGENT_E2E_SKIP_BUILD=1
 * when `dist` is already fresh (for example right after `npm run build` in `npm run check`).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Two projects use this setup (the fast and the slow end-to-end files), and vitest runs it once per
 * project, each time as a fresh module: the first run leaves its state directory here, in the one
 * vitest process, so that the second neither builds again nor points the CLI elsewhere.
 */
const DONE = Symbol.for("agent-harness.e2e-global-setup");
type SetUpProcess = typeof globalThis & { [DONE]?: string };

/**
 * Also makes the one state directory (run journals) every CLI run of the tests uses, outside every
 * test workspace and never the developer's own ~/.local/state; removed after the last test (by the
 * teardown of the setup that made it, which vitest runs last).
 */
export default function setup(): () => void {
  const shared = globalThis as SetUpProcess;
  const made = shared[DONE];
  if (made !== undefined) {
    process.env.AGENT_E2E_STATE_DIR = made;
    return () => undefined;
  }
  const state = mkdtempSync(join(tmpdir(), "agent-e2e-state-"));
  // The runs' temp directory (cli-process.ts, baseEnv).
  mkdirSync(join(state, "tmp"));
  shared[DONE] = state;
  process.env.AGENT_E2E_STATE_DIR = state;
  const teardown = (): void => {
    rmSync(state, { recursive: true, force: true });
    shared[DONE] = undefined;
  };
  if (process.env.AGENT_E2E_SKIP_BUILD === "1") return teardown;
  const bundle = fileURLToPath(new URL("../../scripts/bundle.js", import.meta.url));
  const build = spawnSync(process.execPath, [bundle], { encoding: "utf8" });
  if (build.status !== 0) {
    teardown();
    throw new Error(`The build for the end-to-end tests failed:\n${build.stdout}${build.stderr}`);
  }
  return teardown;
}
