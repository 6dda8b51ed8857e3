#!/usr/bin/env node
// @ts-check
/**
 * dist/agent.cjs, the `agent` command: starts the bundle (dist/agent-bundle.cjs) through V8's code
 * cache, so node skips compiling it (~20 ms). The first run after a build compiles as usual and
 * leaves the cache beside the bundle when the directory is writable.
 *
 * The cache is code the host runs, so it is trusted no more than the bundle and never more than
 * its directory: it is opened without following a link and without blocking on a FIFO, used only
 * when it is a regular file with one link, owned by the bundle's owner and writable by no one else,
 * and starts with the SHA-256 of the bundle bytes read here, through the same descriptor as the
 * source that is compiled (V8 itself checks only the source's length). It is written to a fresh
 * random name (O_CREAT|O_EXCL|O_NOFOLLOW), then renamed into place. The hash ties a cache to one
 * bundle; it is no signature: who can write dist/ can forge both, which is why the sandbox and the
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
const cacheFile = path.join(__dirname, "agent-bundle.cache");

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

/** @type {Buffer} */
let bytes;
/** @type {import("node:fs").Stats} */
let bundleStats;
try {
  const opened = openRegular(file);
  bundleStats = opened.stats;
  try {
    // One descriptor for the hash and the compiled source: they are the same bytes.
    bytes = readFileSync(opened.fd);
  } finally {
    closeSync(opened.fd);
  }
} catch (error) {
  process.stderr.write(`agent: cannot read ${file}: ${String(error)}\n`);
  process.exit(1);
}
const digest = createHash("sha256").update(bytes).digest();

/** The cached data for exactly these bundle bytes, or undefined. */
function readCache() {
  let opened;
  try {
    opened = openRegular(cacheFile);
  } catch {
    return undefined; // missing, a link, a FIFO, a directory: compile as usual
  }
  try {
    const { stats } = opened;
    const trusted =
      stats.nlink === 1 &&
      stats.uid === bundleStats.uid &&
      (process.platform === "win32" || (stats.mode & 0o022) === 0) &&
      stats.size > HASH_BYTES &&
      stats.size <= MAX_CACHE_BYTES;
    if (!trusted) return undefined;
    const data = readFileSync(opened.fd);
    return data.subarray(0, HASH_BYTES).equals(digest) ? data.subarray(HASH_BYTES) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Writes the cache whole under a fresh name nobody could have planted, then renames it into place.
 * @param {Buffer} data
 */
function writeCache(data) {
  const temporary = path.join(__dirname, `.agent-bundle.${randomBytes(12).toString("hex")}.tmp`);
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
    renameSync(temporary, cacheFile);
  } catch {
    if (fd !== undefined) closeSync(fd);
    // Our own name (O_EXCL): removing it removes at most a link put there since, never its target.
    rmSync(temporary, { force: true });
  }
}

const cachedData = readCache();
const script = new Script(Module.wrap(bytes.toString("utf8")), { filename: file, cachedData });
if (cachedData === undefined || script.cachedDataRejected === true) {
  // At exit, so it also holds the functions the run compiled on the way.
  process.once("exit", () => {
    try {
      writeCache(script.createCachedData());
    } catch {
      // never a reason to fail
    }
  });
}
const bundle = new Module(file, module);
bundle.filename = file;
script.runInThisContext()(bundle.exports, require, bundle, file, __dirname);
