// @ts-check
/**
 * `npm run agent`: runs dist/agent.cjs, the same command the installed `agent` runs, in this very
 * process. It never runs stale code: when anything the bundle is made from (src/, package.json,
 * package-lock.json, the bundle scripts) is newer than the bundle, or a file was added or removed,
 * it rebuilds first (esbuild, well under a second). The check stats ~100 paths: a few ms. It also
 * rebuilds when the bundle's or zod's bytes no longer hash to what the build recorded
 * (dist/agent-bundle.sha256, see scripts/bundle.js): a file changed after its build is never run,
 * however new its time (SHA-256 of ~0.7 MB: ~2 ms). Both files are read without following links or waiting on a FIFO.
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
/** What the build hashed into BUNDLE_HASH, in its order: what the command runs. */
const BUILT = [
  BUNDLE,
  path.join(ROOT, "dist", "agent-zod.cjs"),
  path.join(ROOT, "dist", "agent-mcp.cjs"),
  path.join(ROOT, "dist", "agent-grep.cjs"),
];
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
  // With the entries' types: node 20's recursive listing by name alone took ~13 ms for ~400
  // entries here, by type ~1.3 ms.
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
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
 * A regular file's bytes and stats, opened without following a link or waiting on a FIFO.
 * @param {string} file
 */
function readRegular(file) {
  const fd = openSync(
    file,
    constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
  );
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error(`${file} is not a regular file`);
    return { bytes: readFileSync(fd), stats };
  } finally {
    closeSync(fd);
  }
}

/**
 * The bundle as the check below read and hashed it, for the launcher's `start`: it then neither
 * reads nor hashes it again (~3 ms), and the bytes found to be the build's are the bytes run.
 * @type {{ bytes: Buffer, stats: import("node:fs").Stats, digest: Buffer } | undefined}
 */
let checkedBundle;

/**
 * The first of the bundle and zod whose bytes are not what the last build recorded for it, as a
 * path from the repository root, or undefined when both match.
 */
function differsFromBuild() {
  /** @type {Map<string, string>} */
  const recorded = new Map();
  try {
    for (const line of readRegular(BUNDLE_HASH).bytes.toString("utf8").split("\n")) {
      const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined) recorded.set(match[2], match[1]);
    }
  } catch {
    // no record: every file counts as changed
  }
  return BUILT.find((file) => {
    try {
      const { bytes, stats } = readRegular(file);
      const digest = createHash("sha256").update(bytes).digest();
      if (file === BUNDLE) checkedBundle = { bytes, stats, digest };
      return recorded.get(path.basename(file)) !== digest.toString("hex");
    } catch {
      return true;
    }
  });
}

/** Tells the launcher that `start` is called here, with the bundle checked (scripts/launcher.cjs). */
Reflect.set(globalThis, Symbol.for("agent-harness.launcher.started-by-caller"), true);

const stale = bundleMs() < newestSourceMs();
const changed = stale ? undefined : differsFromBuild();
if (stale || changed !== undefined) {
  void import("./bundle.js").then(async ({ bundle }) => {
    // Quick: the caches are left to the run below, which writes them at its exit.
    const { ms } = await bundle({ seed: false });
    const why = stale
      ? "sources changed"
      : `${path
          .relative(ROOT, changed ?? BUNDLE)
          .split(path.sep)
          .join("/")} differs from its build`;
    process.stderr.write(`agent: ${why}, rebuilt dist/agent.cjs in ${Math.round(ms)} ms\n`);
    require(LAUNCHER).start();
  });
} else {
  require(LAUNCHER).start(checkedBundle);
}
