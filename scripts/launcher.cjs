#!/usr/bin/env node
// @ts-check
/**
 * dist/agent.cjs, the `agent` command: starts the bundle (dist/agent-bundle.cjs) through V8's code
 * cache, so node skips compiling it (~20 ms). The first run after a build compiles as usual and
 * leaves the cache beside the bundle when the directory is writable. zod's file
 * (dist/agent-zod.cjs, which the bundle requires at a run's first tool call or while the model
 * thinks) is loaded the same way, with its own cache (dist/agent-zod.cache, ~12 ms of its ~35 ms
 * of CPU), written by the first run that loads it.
 *
 * A cache is code the host runs, so it is trusted no more than its source and never more than its
 * directory: it is opened without following a link and without blocking on a FIFO, used only when
 * it is a regular file with one link, owned by its source's owner and writable by no one else,
 * and starts with the SHA-256 of the source bytes read here, through the same descriptor as the
 * source that is compiled (V8 itself checks only the source's length). It is written to a fresh
 * random name (O_CREAT|O_EXCL|O_NOFOLLOW), then renamed into place. The hash ties a cache to one
 * source; it is no signature: who can write dist/ can forge both, which is why the sandbox and the
 * file tools keep the agent's own install read-only.
 */
"use strict";
const {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} = require("node:fs");
const { createHash, randomBytes } = require("node:crypto");
const Module = require("node:module");
const path = require("node:path");
const { Script } = require("node:vm");

// Windows has neither flag; there a FIFO cannot be planted by name and links need privileges.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const HASH_BYTES = 32;
/** A cache is a few MB; anything far larger is not ours. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

const file = path.join(__dirname, "agent-bundle.cjs");
/** What the bundle requires zod by (scripts/bundle.js, LAZY_ZOD): answered here, cached. */
const ZOD_REQUEST = "./agent-zod.cjs";
const zodFile = path.join(__dirname, "agent-zod.cjs");

/**
 * Opens a regular file for reading: no link followed, no FIFO waited on.
 * @param {string} name
 */
function openRegular(name) {
  const fd = openSync(name, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  const stats = fstatSync(fd);
  if (stats.isFile()) return { fd, stats };
  closeSync(fd);
  throw new Error(`${name} is not a regular file`);
}

/**
 * A source's bytes, its owner and their SHA-256, read through one descriptor: the hash and the
 * compiled source are the same bytes. Throws when it is not a regular file (or is a link).
 * @param {string} name
 */
function readSource(name) {
  const { fd, stats } = openRegular(name);
  try {
    const bytes = readFileSync(fd);
    return { bytes, stats, digest: createHash("sha256").update(bytes).digest() };
  } finally {
    closeSync(fd);
  }
}

/**
 * The cached data at `cacheName` for exactly `source`'s bytes, or undefined.
 * @param {string} cacheName
 * @param {ReturnType<typeof readSource>} source
 */
function readCache(cacheName, source) {
  let opened;
  try {
    opened = openRegular(cacheName);
  } catch {
    return undefined; // missing, a link, a FIFO, a directory: compile as usual
  }
  try {
    const { stats } = opened;
    const trusted =
      stats.nlink === 1 &&
      stats.uid === source.stats.uid &&
      (process.platform === "win32" || (stats.mode & 0o022) === 0) &&
      stats.size > HASH_BYTES &&
      stats.size <= MAX_CACHE_BYTES;
    if (!trusted) return undefined;
    const data = readFileSync(opened.fd);
    return data.subarray(0, HASH_BYTES).equals(source.digest)
      ? data.subarray(HASH_BYTES)
      : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Writes a cache whole under a fresh name nobody could have planted, then renames it into place.
 * @param {string} cacheName
 * @param {Buffer} digest
 * @param {Buffer} data
 */
function writeCache(cacheName, digest, data) {
  const base = path.basename(cacheName, ".cache");
  const temporary = path.join(__dirname, `.${base}.${randomBytes(12).toString("hex")}.tmp`);
  let fd;
  try {
    fd = openSync(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
      0o644,
    );
  } catch {
    return; // a read-only install: compile each time, as without a cache
  }
  try {
    for (const chunk of [digest, data]) {
      let written = 0;
      while (written < chunk.length) written += writeSync(fd, chunk, written);
    }
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, cacheName);
  } catch {
    if (fd !== undefined) closeSync(fd);
    // Our own name (O_EXCL): removing it removes at most a link put there since, never its target.
    rmSync(temporary, { force: true });
  }
}

// Peak memory. V8 starts the young generation at 1 MiB a semi-space and doubles it (up to 16)
// whenever many objects survive a scavenge, as they do while the bundle sets itself up; both
// semi-spaces stay resident: 8 MiB by the first request, 16 after ~240 calls of the bench's run.
// Kept at its first size, a scavenge comes more often and costs less; the run's CPU time did not
// grow (docs/performance.md). Set before anything is compiled: a code cache must match the
// flags, so the caches written at exit (or seeded by the build, through this launcher) are made
// under the flags their readers run with. A V8 that reads this flag only at start, or raises it
// to 2, merely loses the saving.
require("node:v8").setFlagsFromString("--semi-space-growth-factor=1");

/**
 * Compiles a CommonJS source through its cache beside it (`<name>.cjs` → `<name>.cache`) and runs
 * it as a module; a cache that is missing or does not fit is rewritten when the process exits, so
 * it also holds the functions the run compiled on the way.
 * @param {string} name
 * @param {ReturnType<typeof readSource>} source
 * @param {(id: string) => unknown} requireFor what the module's `require` is
 */
function runCached(name, source, requireFor) {
  const cacheName = name.replace(/\.cjs$/, ".cache");
  const cachedData = readCache(cacheName, source);
  const script = new Script(Module.wrap(source.bytes.toString("utf8")), {
    filename: name,
    cachedData,
  });
  if (cachedData === undefined || script.cachedDataRejected === true) {
    process.once("exit", () => {
      try {
        writeCache(cacheName, source.digest, script.createCachedData());
      } catch {
        // never a reason to fail
      }
    });
  }
  const loaded = new Module(name, module);
  loaded.filename = name;
  script.runInThisContext()(loaded.exports, requireFor, loaded, name, __dirname);
  return loaded.exports;
}

/** @type {unknown} */
let zodExports;
/**
 * zod's file through its cache. When it cannot be opened as a regular file of its own (a link,
 * say), node's loader takes it as before, without a cache, and reports any error the same way.
 */
function loadZod() {
  if (zodExports !== undefined) return zodExports;
  /** @type {ReturnType<typeof readSource> | undefined} */
  let source;
  try {
    source = readSource(zodFile);
  } catch {
    source = undefined;
  }
  zodExports = source === undefined ? require(ZOD_REQUEST) : runCached(zodFile, source, require);
  return zodExports;
}

/**
 * The bundle's `require`: ours, but zod's file comes through its cache.
 * @type {NodeJS.Require}
 */
const bundleRequire = Object.assign(
  /** @param {string} id */
  (id) => (id === ZOD_REQUEST ? loadZod() : require(id)),
  {
    resolve: require.resolve,
    cache: require.cache,
    main: require.main,
    extensions: require.extensions,
  },
);

/**
 * Starts the bundle. `npm run agent` (scripts/agent.cjs) has already read it as this file would
 * and hashed it to see that it is what the build made: it hands those bytes over as `checked`.
 * @param {ReturnType<typeof readSource>} [checked]
 */
function start(checked) {
  /** @type {ReturnType<typeof readSource>} */
  let bundle;
  try {
    bundle = checked ?? readSource(file);
  } catch (error) {
    process.stderr.write(`agent: cannot read ${file}: ${String(error)}\n`);
    process.exit(1);
  }
  runCached(file, bundle, bundleRequire);
}

/**
 * Set by `npm run agent` (scripts/agent.cjs) before it requires this file, to call `start` with
 * the bundle it checked. Anything else that loads this file, by running or requiring it (a
 * process manager's fork mode, `node -e "require(…)"`), starts the agent as before.
 */
const STARTED_BY_CALLER = Symbol.for("agent-harness.launcher.started-by-caller");
module.exports = { start };
if (Reflect.get(globalThis, STARTED_BY_CALLER) !== true) start();
