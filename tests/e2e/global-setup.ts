/**
 * Builds the CLI once before any end-to-end test, so every test drives the same bundle,
 * `dist/agent.cjs`, that the installed `agent` and `npm run agent` run. Set AGENT_E2E_SKIP_BUILD=1
 * when `dist` is already fresh (for example right after `npm run build` in `npm run check`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Also makes the one state directory (run journals) every CLI run of the tests uses, outside every
 * test workspace and never the developer's own ~/.local/state; removed after the last test.
 */
export default function setup(): () => void {
  const state = mkdtempSync(join(tmpdir(), "agent-e2e-state-"));
  process.env.AGENT_E2E_STATE_DIR = state;
  const teardown = (): void => {
    rmSync(state, { recursive: true, force: true });
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
