/**
 * The workspace's `.npmrc` as npm itself reads it: with the `ini` package npm uses (pinned to the
 * version npm bundles), then each key passed through npm's `${VAR}` expansion. Keys are judged as
 * npm would see them, so an escape, a quote, a `key[]` or a section that npm's parser decodes to
 * `workspace` is the key `workspace`, not a spelling a second parser of ours might miss.
 */
import { decode } from "ini";
import { UnbindableCommandError } from "../../core/grants/unbindable-command.js";

/**
 * Keys that make npm run code from other places than the workspace's own package.json (other
 * workspaces' scripts, another project folder, the global one): what they point at is not bound,
 * so such a configuration is refused. (`script-shell` and `node-options` stay: the files they
 * name are bound, see command-reach.ts.)
 */
const REDIRECTING_KEYS = new Set([
  "workspace",
  "workspaces",
  "include-workspace-root",
  "prefix",
  "globalconfig",
  "userconfig",
  "global",
  "location",
  "onload-script",
]);

/** npm's own key forms, judged alike: case and `_`/`-` never hide a key (over-matches). */
function normalKey(key: string): string {
  return key.trim().toLowerCase().replaceAll("_", "-");
}

/**
 * The first key (or section) npm would read from this text that redirects it, or undefined.
 * Throws UnbindableCommandError for a key npm expands from the environment (`${VAR}`): what it
 * becomes depends on variables the harness does not bind.
 */
export function redirectingNpmrcKey(npmrc: string): string | undefined {
  for (const key of Object.keys(decode(npmrc))) {
    if (key.includes("${")) {
      throw new UnbindableCommandError(
        `the workspace's .npmrc has the key ${JSON.stringify(key)}, which npm expands from the environment, so the harness cannot say which setting it is; write the key out in .npmrc to run npm here`,
      );
    }
    const normal = normalKey(key);
    if (REDIRECTING_KEYS.has(normal)) return normal;
  }
  return undefined;
}

/** The values npm would read for `key`, as npm's parser decodes them (several with `key[]`). */
export function npmrcValues(npmrc: string, key: string): string[] {
  return Object.entries(decode(npmrc)).flatMap(([name, value]) =>
    normalKey(name) !== key
      ? []
      : (Array.isArray(value) ? value : [value]).filter((item) => typeof item === "string"),
  );
}
