// @ts-check
/**
 * `prepare`: builds dist/agent.cjs. npm runs it after `npm ci` / `npm install` in a clone (the dev
 * dependencies, esbuild among them, are there), before `npm pack`, and on `npm install -g .` /
 * `npm link` from a clone. Those last two link the folder without installing its dev
 * dependencies, so on a fresh clone this installs them first, from the lockfile, as `npm ci` would.
 */
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Only the clone's own node_modules counts: Node would also find an esbuild in a folder above the
 * clone (another project, ~/node_modules), and the bundle would then miss the clone's other
 * dependencies.
 */
function hasEsbuild() {
  try {
    const found = createRequire(import.meta.url).resolve("esbuild");
    // resolve() answers with the real path: compare with node_modules' own, which differs when
    // node_modules is a link (a git worktree sharing the main clone's install).
    const inside = relative(realpathSync(join(ROOT, "node_modules")), found);
    return !isAbsolute(inside) && inside.split(sep)[0] !== "..";
  } catch {
    return false;
  }
}

if (!hasEsbuild()) {
  process.stderr.write("prepare: installing the build tools (npm ci) to build dist/agent.cjs\n");
  // The global install's own settings (global, prefix) must not reach this local install.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^npm_config_(global|prefix|location|omit|only|production)$/i.test(name),
    ),
  );
  const npm = process.env.npm_execpath;
  const [command, args] =
    npm !== undefined && /\.[cm]?js$/.test(npm)
      ? [process.execPath, [npm]]
      : [process.platform === "win32" ? "npm.cmd" : "npm", []];
  const install = spawnSync(
    command,
    [...args, "ci", "--ignore-scripts", "--include=dev", "--no-audit", "--no-fund"],
    { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"], shell: command === "npm.cmd" },
  );
  if (install.status !== 0) {
    process.stderr.write("prepare: npm ci failed; run it in this folder, then npm run bundle\n");
    process.exit(1);
  }
}

const { bundle, NOT_SEEDED } = await import("./bundle.js");
const { ms, seeded } = await bundle();
process.stderr.write(`prepare: built dist/agent.cjs in ${Math.round(ms)} ms\n`);
if (!seeded) process.stderr.write(`prepare: ${NOT_SEEDED}\n`);
