// @ts-check
/**
 * `npm run agent`: runs dist/agent.cjs, the same command the installed `agent` runs, in this very
 * process. It never runs stale code: when anything the bundle is made from (src/, package.json,
 * package-lock.json, the bundle scripts) is newer than the bundle, or a file was added or removed,
 * it rebuilds first (esbuild, well under a second). The check stats ~100 paths: a few ms.
 * CommonJS, like the bundle, so node needs no ES module loader to start it.
 */
"use strict";
const { readdirSync, statSync } = require("node:fs");
const path = require("node:path");

const ROOT = path.join(__dirname, "..");
const BUNDLE = path.join(ROOT, "dist", "agent-bundle.cjs");
const LAUNCHER = path.join(ROOT, "dist", "agent.cjs");
const INPUTS = [
  "package.json",
  "package-lock.json",
  "scripts/bundle.js",
  "scripts/bundle-globals.js",
];

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
  void import("./bundle.js").then(async ({ bundle }) => {
    const { ms } = await bundle();
    process.stderr.write(
      `agent: sources changed, rebuilt dist/agent.cjs in ${Math.round(ms)} ms\n`,
    );
    require(LAUNCHER);
  });
} else {
  require(LAUNCHER);
}
