/**
 * A file npm reads in a package folder (its package.json, the workspace's `.npmrc`), read as the
 * harness reads its inputs: never through a link, only as a small regular file.
 */
import { join } from "node:path";
import { firstLineOfError } from "../../core/common/one-line.js";
import { errorCode, readHarnessInput } from "../filesystem/index.js";
import { NpmScriptError } from "./npm-script-error.js";

const MAX_BYTES = 256 * 1024;

/** The file's text, undefined when nothing is there at all (not even a dangling link). */
export function readProjectFile(folder: string, name: string): string | undefined {
  try {
    return readHarnessInput(join(folder, name), MAX_BYTES);
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
