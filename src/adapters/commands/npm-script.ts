/**
 * What npm will run for an npm argv, said in words for the approval and bound into its digest.
 * npm follows links, parses a package.json with a byte-order mark and obeys the workspace's
 * `.npmrc`; the harness reads both without following links and only as small regular files. Where
 * the two views could differ (a link whose target can change after the approval, a FIFO, a
 * directory, a file over the limit, JSON the harness cannot parse) there is no text to bind, so
 * the request is refused (NpmScriptError) instead of being taken for one that runs no script.
 */
import { join } from "node:path";
import { firstLineOfError } from "../../core/common/one-line.js";
import { UnbindableCommandError } from "../../core/grants/unbindable-command.js";
import { errorCode, readHarnessInput } from "../filesystem/index.js";
import { packageManagerForm, redirectingNpmrcKey } from "./npm-forms.js";

const MAX_BYTES = 256 * 1024;

/** What npm would run cannot be said; P04 denies the command rather than bind nothing. */
export class NpmScriptError extends Error {
  override readonly name = "NpmScriptError";
}

/**
 * `npm test` → scripts.test, `npm run X` → scripts.X (each perhaps with `-- args`), read now;
 * undefined for a program that is no package manager, and when there is no package.json or it
 * names no such script (npm then runs nothing of the model's). npm also runs `preX` and `postX`
 * around the script and obeys the workspace's `.npmrc` (`node-options`, `script-shell`, …), all of
 * which the model can write in P04: each is named here, so a change to any of them makes a
 * different action that needs its own approval. Any other package-manager form, and a `.npmrc`
 * that sends npm to other workspaces or folders, throws UnbindableCommandError (see npm-forms.ts).
 */
export function npmScriptText(workspace: string, argv: readonly string[]): string | undefined {
  const form = packageManagerForm(argv);
  switch (form.kind) {
    case "other":
      return undefined;
    case "unbindable":
      throw new UnbindableCommandError(form.reason);
    case "script":
      return scriptText(workspace, form.name);
  }
}

function scriptText(workspace: string, name: string): string | undefined {
  // Checked first: with `workspaces=true` npm runs other packages' scripts even when the root
  // package.json has none by that name.
  const npmrc = readProjectFile(workspace, ".npmrc");
  const redirect = npmrc === undefined ? undefined : redirectingNpmrcKey(npmrc);
  if (redirect !== undefined) {
    throw new UnbindableCommandError(
      `the workspace's .npmrc sets ${JSON.stringify(redirect)}, which makes npm run code from other workspaces or folders that the harness does not bind; remove it from .npmrc to run npm here`,
    );
  }
  const manifest = readProjectFile(workspace, "package.json");
  if (manifest === undefined) return undefined;
  const scripts = scriptsOf(manifest);
  const script = scripts?.[name];
  if (typeof script !== "string") return undefined;
  const around = [`pre${name}`, `post${name}`].flatMap((hook) => {
    const text = scripts?.[hook];
    return typeof text === "string" ? [`${hook} ${JSON.stringify(text)}`] : [];
  });
  return [
    `runs the script ${JSON.stringify(script)}`,
    ...(around.length === 0 ? [] : [`and npm runs ${around.join(" and ")} around it`]),
    ...(npmrc === undefined ? [] : [`under the workspace's .npmrc ${JSON.stringify(npmrc)}`]),
  ].join(" · ");
}

/** The file's text, undefined when nothing is there at all (not even a dangling link). */
function readProjectFile(workspace: string, name: string): string | undefined {
  try {
    return readHarnessInput(join(workspace, name), MAX_BYTES);
  } catch (error) {
    if (errorCode(error) === "ENOENT" || isMissing(error)) return undefined;
    throw new NpmScriptError(
      `npm would read the workspace's ${name}, and the harness cannot: ${firstLineOfError(error)}`,
    );
  }
}

/** readHarnessInput reports a missing file in its message (it never follows a link). */
function isMissing(error: unknown): boolean {
  return /^ENOENT\b/.test(firstLineOfError(error));
}

function scriptsOf(manifest: string): Record<string, unknown> | undefined {
  let raw: unknown;
  try {
    // npm strips a byte-order mark before parsing; so must the harness, or it would see nothing.
    raw = JSON.parse(manifest.replace(/^\uFEFF/, ""));
  } catch {
    throw new NpmScriptError(
      "the workspace's package.json is not valid JSON, so the harness cannot say what npm would run",
    );
  }
  if (typeof raw !== "object" || raw === null || !("scripts" in raw)) return undefined;
  const scripts = raw.scripts;
  return typeof scripts === "object" && scripts !== null
    ? (scripts as Record<string, unknown>)
    : undefined;
}
