#!/usr/bin/env node
// @ts-check
/**
 * dist/agent.cjs, the `agent` command: starts the bundle (dist/agent-bundle.cjs) through V8's code
 * cache, so node skips compiling it (~20 ms). The first run after a build compiles as usual and
 * leaves the cache beside the bundle when the directory is writable; the cache's name holds the
 * bundle's size and time, so a rebuilt bundle is never paired with an old cache, and V8 itself
 * rejects a cache from another node version (the bundle is then compiled as usual).
 */
"use strict";
const {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const { Script } = require("node:vm");

const file = path.join(__dirname, "agent-bundle.cjs");
// One open file for both, so a bundle rebuilt meanwhile cannot pair its name with old code.
const descriptor = openSync(file, "r");
const { size, mtimeMs } = fstatSync(descriptor);
const source = readFileSync(descriptor, "utf8");
closeSync(descriptor);
const cacheFile = path.join(__dirname, `agent-bundle.${size}-${Math.trunc(mtimeMs)}.cache`);
/** @type {Buffer | undefined} */
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const script = new Script(Module.wrap(source), { filename: file, cachedData });
if (cachedData === undefined || script.cachedDataRejected === true) {
  // At exit, so it also holds the functions the run compiled on the way.
  process.once("exit", () => {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, script.createCachedData());
      renameSync(temporary, cacheFile);
    } catch {
      // A read-only install: compile each time, as without a cache.
      rmSync(temporary, { force: true });
    }
  });
}
const bundle = new Module(file, module);
bundle.filename = file;
script.runInThisContext()(bundle.exports, require, bundle, file, __dirname);
