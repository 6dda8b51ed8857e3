// @ts-check
/**
 * Bundles the CLI, with the openai SDK and zod, into one file, dist/agent-bundle.cjs, started by
 * dist/agent.cjs (scripts/launcher.cjs): what the `agent` bin, `npm run agent` and the demo run. Node then reads one file instead of resolving and
 * loading ~320 ES modules, and the installed package needs nothing from node_modules at run time.
 * Plain JavaScript, so `prepare` (run by `npm ci`, `npm pack` and installs from a clone) needs
 * only node and esbuild.
 */
import { createHash, randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { seedCodeCache } from "./seed-code-cache.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = path.join(ROOT, "dist");
/** The command: scripts/launcher.cjs, which starts the bundle through V8's code cache. */
export const LAUNCHER = path.join(DIST, "agent.cjs");
export const BUNDLE = path.join(DIST, "agent-bundle.cjs");
/** zod, in a file of its own: the bundle requires it at a run's first tool call (LAZY_ZOD). */
export const ZOD = path.join(DIST, "agent-zod.cjs");
/** The MCP SDK's client, in a file of its own: required when a run starts its first MCP server. */
export const MCP = path.join(DIST, "agent-mcp.cjs");
/**
 * The `grep` tool's walk, run in a worker thread of its own (src/adapters/filesystem/grep-in-worker.ts
 * finds it beside the bundle): a worker's program is a file of its own.
 */
export const GREP = path.join(DIST, "agent-grep.cjs");
/** Said when the build's scripted run could not seed the code caches. */
export const NOT_SEEDED = "code caches not seeded; the first run writes them";
/**
 * The SHA-256 of each file this build wrote that the command runs (the bundle and zod), one
 * `<hex>  <name>` line each, as `sha256sum` writes them: `npm run agent` (scripts/agent.cjs) runs
 * only files that still match, so one changed after the build is rebuilt, not run.
 */
export const BUNDLE_HASH = path.join(DIST, "agent-bundle.sha256");

/**
 * zod's `z` namespace re-exports all of its ~40 locales (366 kB, a third of the bundle); the
 * agent uses only the English messages zod installs by default. `z.locales` keeps `en`.
 */
const ZOD_ENGLISH_ONLY = {
  name: "zod-english-only",
  /** @param {import("esbuild").PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)
        ? { path: path.resolve(args.resolveDir, "../locales/index.js"), namespace: "zod-en" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-en" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(args.path),
    }));
  },
};

const SRC = path.join(ROOT, "src") + path.sep;
/** Our one module that imports the MCP SDK (src/adapters/mcp/sdk.ts). */
const MCP_SDK_MODULE = path.join(SRC, "adapters", "mcp", "sdk.ts");
const REAL_MCP = `./${path.basename(MCP)}`;
/** The worker's program, in our sources. */
const GREP_WORKER_MODULE = path.join(SRC, "adapters", "filesystem", "grep-worker.ts");

/**
 * The MCP SDK with what it brings (its own zod, ajv: ~450 kB) is needed only by a run whose
 * settings file names a server. Its module in our sources becomes a stand-in that requires
 * dist/agent-mcp.cjs, built on its own, so every other run's start-up reads none of it.
 */
const LAZY_MCP = {
  name: "lazy-mcp",
  /** @param {import("esbuild").PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) =>
      path.join(args.resolveDir, "sdk.ts") === MCP_SDK_MODULE
        ? { path: "mcp-sdk", namespace: "lazy-mcp" }
        : undefined,
    );
    build.onResolve({ filter: /^\.\/agent-mcp\.cjs$/ }, () => ({ path: REAL_MCP, external: true }));
    build.onLoad({ filter: /.*/, namespace: "lazy-mcp" }, () => ({
      resolveDir: ROOT,
      loader: "js",
      contents: `module.exports = require(${JSON.stringify(REAL_MCP)});`,
    }));
  },
};
/** What the stand-in below requires zod by: dist/agent-zod.cjs, beside the bundle. */
const REAL_ZOD = `./${path.basename(ZOD)}`;

/**
 * zod costs a start-up about 20 ms of CPU (its ~300 classes and the schemas built on load; see
 * docs/how-it-starts.md) though a run needs it only at its first tool call: the builtin tools'
 * schemas are built at first use and their JSON Schemas are listed ahead
 * (src/features/tool-parameters.generated.ts). So `import { z } from "zod"` in our sources gets
 * a stand-in whose first property read requires zod, built on its own into dist/agent-zod.cjs.
 * Inside the bundle, even behind a lazy initialiser, zod still cost every start its namespaces'
 * ~1,000 getters (esbuild defines them at the top level) and a third of the code V8 reads from
 * the code cache: ~4 ms before the first request.
 */
const LAZY_ZOD = {
  name: "lazy-zod",
  /** @param {import("esbuild").PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, (args) =>
      args.importer.startsWith(SRC) ? { path: "zod", namespace: "lazy-zod" } : undefined,
    );
    build.onResolve({ filter: /^\.\/agent-zod\.cjs$/ }, () => ({ path: REAL_ZOD, external: true }));
    build.onLoad({ filter: /.*/, namespace: "lazy-zod" }, () => ({
      resolveDir: ROOT,
      loader: "js",
      contents: [
        "let loaded;",
        `const real = () => (loaded ??= require(${JSON.stringify(REAL_ZOD)}).z);`,
        "export const z = new Proxy(Object.freeze({}), {",
        "  get: (_, key) => real()[key],",
        "  has: (_, key) => key in real(),",
        "});",
      ].join("\n"),
    }));
  },
};

/**
 * Node modules a run needs only after its first request (a command's process, the conversation's
 * line reader, the tools' file access), with the names our sources import from each: `import {
 * spawn } from "node:child_process"` in src/ gets a function that requires the module at its first
 * call, so start-up does not load child_process (with net and dgram), fs/promises or readline
 * (~2.5 ms of CPU). A source importing a name not listed here fails the build: the list is the
 * whole contract.
 */
const LAZY_BUILTINS = {
  "node:child_process": ["spawn", "spawnSync"],
  // ~1 ms with what it loads (readline's interface among them); the tools need it, start-up not.
  "node:fs/promises": [
    "access",
    "lstat",
    "mkdir",
    "mkdtemp",
    "open",
    "realpath",
    "rename",
    "rm",
    "rmdir",
  ],
  "node:readline": ["createInterface"],
};

const LAZY_BUILTIN = {
  name: "lazy-builtin",
  /** @param {import("esbuild").PluginBuild} build */
  setup(build) {
    const names = Object.keys(LAZY_BUILTINS).map((name) => name.replace("/", "\\/"));
    build.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, (args) =>
      args.importer.startsWith(SRC) ? { path: args.path, namespace: "lazy-builtin" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
      loader: "js",
      contents: LAZY_BUILTINS[/** @type {keyof typeof LAZY_BUILTINS} */ (args.path)]
        .map(
          (name) =>
            `export function ${name}(...args) { return require(${JSON.stringify(args.path)}).${name}(...args); }`,
        )
        .join("\n"),
    }));
  },
};

/**
 * The openai SDK builds request headers with the global `Headers` and checks each body against the
 * global `FormData`; the first use of either loads Node's bundled undici (~30 ms). Requests go
 * through node:http (node-http-fetch.ts), so inside the bundle both are stand-ins. It also asks
 * whether each body is a `globalThis.ReadableStream`, which loads Node's web streams: that
 * stand-in answers for a plain object without them (scripts/bundle-globals.js).
 */
export const GLOBAL_STAND_INS = Object.freeze({
  inject: [path.join(ROOT, "scripts", "bundle-globals.js")],
  define: { "globalThis.ReadableStream": "ReadableStreamStandIn" },
});

/**
 * Builds dist/agent.cjs (written whole, then renamed into place) and returns how long it took and
 * whether its code caches were seeded (scripts/seed-code-cache.js; `seed: false` leaves them to
 * the first run, as `npm run agent`'s quick rebuild does).
 */
export async function bundle({ seed = true } = {}) {
  const started = performance.now();
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [path.join(ROOT, "src", "cli.ts")],
    bundle: true,
    platform: "node",
    // CommonJS: node starts it ~20 ms sooner than the same code as an ES module, and V8's code
    // cache (scripts/launcher.cjs) takes only scripts.
    format: "cjs",
    banner: {
      js: '"use strict";var __agentBundleURL = require("node:url").pathToFileURL(__filename).href;',
    },
    target: "node20",
    // Node 20 has them, but esbuild still turns each `/\p{…}/u` into `new RegExp(…)`, which
    // compiles at load: the first one loaded ICU's property data before the first request.
    supported: { "regexp-unicode-property-escapes": true },
    minify: true,
    legalComments: "none",
    plugins: [LAZY_ZOD, LAZY_MCP, LAZY_BUILTIN, ZOD_ENGLISH_ONLY],
    inject: GLOBAL_STAND_INS.inject,
    define: { "import.meta.url": "__agentBundleURL", ...GLOBAL_STAND_INS.define },
    write: false,
    logLevel: "warning",
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error("esbuild produced no output");
  const zodText = await bundleZod(build);
  const mcpText = await bundleMcp(build);
  const grepText = await bundleAlone(build, { entryPoints: [GREP_WORKER_MODULE] }, "grep worker");
  await mkdir(DIST, { recursive: true });
  // The launcher wraps the bundle in a function, where src/cli.ts's `#!` line cannot stand.
  const bundleText = code.replace(/^#!.*\n/, "");
  assertAscii(bundleText, "dist/agent-bundle.cjs");
  await replace(ZOD, zodText, 0o644);
  await replace(MCP, mcpText, 0o644);
  await replace(GREP, grepText, 0o644);
  await replace(BUNDLE, bundleText, 0o755);
  await replace(
    LAUNCHER,
    await readFile(path.join(ROOT, "scripts", "launcher.cjs"), "utf8"),
    0o755,
  );
  const hashes = [
    [BUNDLE, bundleText],
    [ZOD, zodText],
    [MCP, mcpText],
    [GREP, grepText],
  ].map(
    ([file, text]) =>
      `${createHash("sha256").update(text).digest("hex")}  ${path.basename(file)}\n`,
  );
  await replace(BUNDLE_HASH, hashes.join(""), 0o644);
  for (const name of await readdir(DIST)) {
    // Caches of older bundles and zod files (scripts/launcher.cjs), in today's and the earlier
    // naming (`agent-bundle.<size>-<ms>.cache`).
    if (!/^agent-(bundle|zod)(\..*)?\.cache$/.test(name)) continue;
    // Not a file (a directory someone put there): the launcher ignores it, so the build does too.
    await rm(path.join(DIST, name), { force: true }).catch(() => undefined);
  }
  // The caches hold the tool path whatever the first real run does (scripts/seed-code-cache.js).
  const seeded = seed && (await seedCodeCache(LAUNCHER));
  return { ms: performance.now() - started, seeded };
}

/**
 * V8 keeps the bundle's source for as long as the process runs (it compiles functions lazily from
 * it): one byte a character when it is ASCII, two when a single character is not (1.2 MiB instead
 * of 0.6, twice over while the launcher's wrapped copy is made). esbuild escapes strings, not
 * regular expression literals, so a literal with `✔` in it must spell it `\u2714`.
 * @param {string} text
 * @param {string} name
 */
export function assertAscii(text, name) {
  const at = text.search(/[\u0080-\u{10ffff}]/u);
  if (at === -1) return;
  const character = text.codePointAt(at) ?? 0;
  throw new Error(
    `${name} would hold U+${character.toString(16).toUpperCase().padStart(4, "0")} near ` +
      `${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}: escape it in the source ` +
      "(\\u…), so V8 keeps the bundle's source one byte a character",
  );
}

/**
 * zod alone, English messages only, as CommonJS exporting `z`: what LAZY_ZOD's stand-in requires.
 * @param {typeof import("esbuild").build} build
 */
function bundleZod(build) {
  return bundleAlone(
    build,
    {
      stdin: { contents: 'export { z } from "zod";', resolveDir: ROOT, sourcefile: "agent-zod.js" },
    },
    "zod",
  );
}

/**
 * The MCP SDK's client, as CommonJS exporting what src/adapters/mcp/sdk.ts exports: what
 * LAZY_MCP's stand-in requires.
 * @param {typeof import("esbuild").build} build
 */
function bundleMcp(build) {
  return bundleAlone(build, { entryPoints: [MCP_SDK_MODULE] }, "MCP client");
}

/**
 * One file the main bundle requires lazily: minified CommonJS for Node 20, zod's messages English
 * only, returned as text (the caller writes it and records its hash).
 * @param {typeof import("esbuild").build} build
 * @param {Pick<import("esbuild").BuildOptions, "stdin" | "entryPoints">} entry
 * @param {string} what
 */
async function bundleAlone(build, entry, what) {
  const result = await build({
    ...entry,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    legalComments: "none",
    plugins: [ZOD_ENGLISH_ONLY],
    write: false,
    logLevel: "warning",
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error(`esbuild produced no ${what}`);
  return code;
}

/**
 * Written whole, then renamed into place: a running agent never reads half a file. The temporary
 * name is random and created exclusively, never through a link: a name planted in dist/ beforehand
 * (a link to a host file, a FIFO) is never written through.
 * @param {string} file
 * @param {string} text
 * @param {number} mode
 */
async function replace(file, text, mode) {
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(12).toString("hex")}.tmp`,
  );
  const handle = await open(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    mode,
  );
  try {
    await handle.writeFile(text);
    await handle.chmod(mode);
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ms, seeded } = await bundle();
  process.stderr.write(`bundle: dist/agent.cjs in ${Math.round(ms)} ms\n`);
  if (!seeded) process.stderr.write(`bundle: ${NOT_SEEDED}\n`);
}
