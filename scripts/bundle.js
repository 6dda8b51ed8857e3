// @ts-check
/**
 * Bundles the CLI, with the openai SDK and zod, into one file: dist/agent.cjs, what the `agent`
 * bin, `npm run agent` and the demo run. Node then reads one file instead of resolving and
 * loading ~320 ES modules, and the installed package needs nothing from node_modules at run time.
 * Plain JavaScript, so `prepare` (run by `npm ci`, `npm pack` and installs from a clone) needs
 * only node and esbuild.
 */
import { chmod, mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const BUNDLE = path.join(ROOT, "dist", "agent.cjs");

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

/** Builds dist/agent.cjs (written whole, then renamed into place) and returns how long it took. */
export async function bundle() {
  const started = performance.now();
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [path.join(ROOT, "src", "cli.ts")],
    bundle: true,
    platform: "node",
    // CommonJS: node starts it ~20 ms sooner than the same code as an ES module.
    format: "cjs",
    define: { "import.meta.url": "__agentBundleURL" },
    banner: {
      js: '"use strict";var __agentBundleURL = require("node:url").pathToFileURL(__filename).href;',
    },
    target: "node20",
    minify: true,
    legalComments: "none",
    plugins: [ZOD_ENGLISH_ONLY],
    // The openai SDK builds request headers with the global `Headers` and checks each body against
    // the global `FormData`; the first use of either loads Node's bundled undici (~30 ms). Requests
    // go through node:http (node-http-fetch.ts), so inside the bundle both are stand-ins.
    inject: [path.join(ROOT, "scripts", "bundle-globals.js")],
    write: false,
    logLevel: "warning",
  });
  const code = result.outputFiles[0]?.contents;
  if (code === undefined) throw new Error("esbuild produced no output");
  await mkdir(path.dirname(BUNDLE), { recursive: true });
  const temporary = `${BUNDLE}.${process.pid}.tmp`;
  await writeFile(temporary, code);
  await chmod(temporary, 0o755);
  await rename(temporary, BUNDLE);
  return { ms: performance.now() - started };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ms } = await bundle();
  process.stderr.write(`bundle: dist/agent.cjs in ${Math.round(ms)} ms\n`);
}
