/**
 * Builds the CLI once before any end-to-end test, so every test drives the same bundle,
 * `dist/agent.cjs`, that the installed `agent` and `npm run agent` run. Set AGENT_E2E_SKIP_BUILD=1
 * when `dist` is already fresh (for example right after `npm run build` in `npm run check`).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  if (process.env.AGENT_E2E_SKIP_BUILD === "1") return;
  const bundle = fileURLToPath(new URL("../../scripts/bundle.js", import.meta.url));
  const build = spawnSync(process.execPath, [bundle], { encoding: "utf8" });
  if (build.status !== 0) {
    throw new Error(`The build for the end-to-end tests failed:\n${build.stdout}${build.stderr}`);
  }
}
