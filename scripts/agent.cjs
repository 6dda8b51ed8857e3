// @ts-check
/**
 * `npm run agent`: runs dist/agent.cjs, the same command the installed `agent` runs, in this very
 * process. It never runs stale code: when anything the bundle is made from (src/, package.json,
 * package-lock.json, the bundle scripts) is newer than the bundle, or a file was added or removed,
 * it rebuilds first (esbuild, well under a second). The check stats ~100 paths: a few ms. It also
 * rebuilds when the bundle's bytes no longer hash to what the build recorded (dist/agent-bundle.sha256,
 * see scripts/bundle.js): a bundle changed after its build is never run, however new its time
 * (SHA-256 of ~1 MB: ~2 ms). Both files are read without following links or waiting on a FIFO.
 * CommonJS, like the bundle, so node needs no ES module loader to start it.
 */
"use strict";
const {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  readdirSync,
  statSync,
} = require("node:fs");
const { createHash } = require("node:crypto");
const path = require("node:path");

const ROOT = path.join(__dirname, "..");
const BUNDLE = path.join(ROOT, "dist", "agent-bundle.cjs");
const LAUNCHER = path.join(ROOT, "dist", "agent.cjs");
const BUNDLE_HASH = path.join(ROOT, "dist", "agent-bundle.sha256");
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

/**
 * A regular file's bytes, opened without following a link or waiting on a FIFO.
 * @param {string} file
 */
function readRegular(file) {
  const fd = openSync(
    file,
    constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
  );
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${file} is not a regular file`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Whether the bundle is, byte for byte, the one the last build wrote. */
function bundleMatchesBuild() {
  try {
    const recorded = readRegular(BUNDLE_HASH).toString("utf8").trim();
    return recorded === createHash("sha256").update(readRegular(BUNDLE)).digest("hex");
  } catch {
    return false;
  }
}

const stale = bundleMs() < newestSourceMs();
if (stale || !bundleMatchesBuild()) {
  void import("./bundle.js").then(async ({ bundle }) => {
    const { ms } = await bundle();
    const why = stale ? "sources changed" : "dist/agent-bundle.cjs differs from its build";
    process.stderr.write(`agent: ${why}, rebuilt dist/agent.cjs in ${Math.round(ms)} ms\n`);
    require(LAUNCHER);
  });
} else {
  require(LAUNCHER);
}
