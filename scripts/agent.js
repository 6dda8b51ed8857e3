// @ts-check
/**
 * `npm run agent`: runs dist/agent.js, the same bundle the installed `agent` runs, in this very
 * process. It never runs stale code: when anything the bundle is made from (src/, package.json,
 * package-lock.json, scripts/bundle.js) is newer than the bundle, or a file was added or removed,
 * it rebuilds first (esbuild, well under a second). The check stats ~100 paths: a few ms.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUNDLE = path.join(ROOT, "dist", "agent.js");
const INPUTS = ["package.json", "package-lock.json", "scripts/bundle.js"];

/** Newest modification time of the sources; a directory's changes when an entry comes or goes. */
function newestSourceMs() {
  const src = path.join(ROOT, "src");
  let newest = statSync(src).mtimeMs;
  for (const entry of readdirSync(src, { recursive: true, encoding: "utf8" })) {
    newest = Math.max(newest, statSync(path.join(src, entry)).mtimeMs);
  }
  for (const file of INPUTS) newest = Math.max(newest, statSync(path.join(ROOT, file)).mtimeMs);
  return newest;
}

function bundleMs() {
  try {
    return statSync(BUNDLE).mtimeMs;
  } catch {
    return -Infinity;
  }
}

if (bundleMs() < newestSourceMs()) {
  const { bundle } = await import("./bundle.js");
  const { ms } = await bundle();
  process.stderr.write(`agent: sources changed, rebuilt dist/agent.js in ${Math.round(ms)} ms\n`);
}
await import(pathToFileURL(BUNDLE).href);
