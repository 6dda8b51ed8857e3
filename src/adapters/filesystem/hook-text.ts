/**
 * A hook's text, or a config a hook manager reads behind one, as a shell or the manager reads
 * it: through links (git follows them), a small regular file, never a compiled program.
 */
import { closeSync, constants, realpathSync } from "node:fs";
import { firstLineOfError } from "../../core/common/one-line.js";
import { errorCode } from "./fs-errors.js";
import { openRegularFileSync, readAtMostSync } from "./safe-open.js";

/** A hook is a script: one longer than this is not read, and counts as able to run anything. */
const HOOK_LIMIT_BYTES = 256 * 1024;

export type HookRead =
  | { readonly kind: "missing" }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "unread"; readonly unread: string };

/** A hook's text as git's shell would read it (through links, as git follows them). */
export function readHook(path: string): HookRead {
  let fd: number;
  let size: number;
  try {
    const opened = openRegularFileSync(realpathSync.native(path), constants.O_RDONLY);
    fd = opened.handle;
    size = opened.stats.size;
  } catch (error) {
    // A dangling link is missing to git too.
    if (errorCode(error) === "ENOENT") return { kind: "missing" };
    return { kind: "unread", unread: firstLineOfError(error) };
  }
  try {
    // Sized by fstat: a husky layout reads a dozen shims at every write decision.
    const bytes = readAtMostSync(fd, HOOK_LIMIT_BYTES, size);
    if (bytes === undefined) {
      return { kind: "unread", unread: `it is larger than ${String(HOOK_LIMIT_BYTES)} bytes` };
    }
    // A compiled program may run anything; its bytes say nothing a scan can read.
    if (bytes.includes(0)) return { kind: "unread", unread: "it is not a script" };
    return { kind: "text", text: bytes.toString("utf8") };
  } catch (error) {
    return { kind: "unread", unread: firstLineOfError(error) };
  } finally {
    closeSync(fd);
  }
}
