/**
 * Builds the CLI once before any end-to-end test, so every test drives the same `dist/cli.js` a
 * person would run after `npm run build`. Set AGENT_E2E_SKIP_BUILD=1 when `dist` is already fresh
 * (for example right after `npm run build` in `npm run check`).
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  if (process.env.AGENT_E2E_SKIP_BUILD === "1") return;
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const build = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: root,
    encoding: "utf8",
  });
  if (build.status !== 0) {
    throw new Error(`The build for the end-to-end tests failed:\n${build.stdout}${build.stderr}`);
  }
}
