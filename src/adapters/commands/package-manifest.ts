/**
 * A package.json read as npm and node read it, for every reader of the commands room: a
 * byte-order mark first is skipped (npm and node strip it; a reader that did not would see no
 * scripts, no `main` and no config where they run them).
 */
import { NpmScriptError } from "./npm-script-error.js";

/** The parsed manifest; throws SyntaxError when it is not JSON. */
export function manifestJson(text: string): unknown {
  return JSON.parse(text.replace(/^\uFEFF/u, "")) as unknown;
}

/** The manifest parsed, or undefined when it is not JSON (npm then runs nothing of it). */
export function manifestOrNone(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return manifestJson(text);
  } catch {
    return undefined;
  }
}

/** Its `scripts` object, when it has one. */
export function scriptsIn(manifest: unknown): Readonly<Record<string, unknown>> | undefined {
  return isObject(manifest) && isObject(manifest.scripts) ? manifest.scripts : undefined;
}

/** The text of one script, when it is a string. */
export function scriptNamed(manifest: unknown, name: string): string | undefined {
  const text = scriptsIn(manifest)?.[name];
  return typeof text === "string" ? text : undefined;
}

/** Its `main`, when it names a file (node takes an empty one as none). */
export function mainIn(manifest: unknown): string | undefined {
  return isObject(manifest) && typeof manifest.main === "string" && manifest.main !== ""
    ? manifest.main
    : undefined;
}

/** A package.json's `scripts`; NpmScriptError when it is not JSON. */
export function scriptsOf(text: string): Readonly<Record<string, unknown>> | undefined {
  let manifest: unknown;
  try {
    manifest = manifestJson(text);
  } catch {
    throw new NpmScriptError(
      "the workspace's package.json is not valid JSON, so the harness cannot say what npm would run",
    );
  }
  return scriptsIn(manifest);
}

export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
