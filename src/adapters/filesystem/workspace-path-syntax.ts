/**
 * The syntactic half of the workspace path boundary. Pure and identical on every OS, so the Windows
 * inputs are table-tested on Linux and a path accepted here means the same file everywhere.
 */
import type { FileErrorCode } from "../../core/ports/filesystem.js";
import { endsWithDotOrSpace, isWindowsDeviceName } from "./windows-names.js";

export type PathClassification =
  | {
      readonly ok: true;
      /** Segments to join under the workspace; `.` and empty segments are dropped. */
      readonly segments: readonly string[];
    }
  | {
      readonly ok: false;
      readonly code: Extract<FileErrorCode, "invalid_path" | "path_escape">;
      readonly message: string;
    };

// Both separators count on every OS: `a\..\b` is a parent segment once the tree reaches Windows.
const SEPARATOR = /[\\/]/u;
// C0, DEL and C1 controls (NUL included).
const CONTROL = /\p{Cc}/u;
/**
 * Half of a UTF-16 surrogate pair on its own. It has no UTF-8 form: the file would be created under
 * U+FFFD instead, a name other than the one reported.
 */
export const LONE_SURROGATE = /\p{Cs}/u;
// `:` also covers NTFS alternate data streams (`a.txt:secret`) and drive-relative paths.
const RESERVED = /[<>:"|?*]/u;
// `/x`, `\x`, `\\server\share`, `//server`, `\\?\C:\x`, `\\.\pipe\x`, `\??\C:\x`, `C:\x`, `C:x`.
const ABSOLUTE = /^(?:[\\/]|[A-Za-z]:)/u;
/**
 * Linux allows 255 bytes per name, Windows 255 UTF-16 units; the stricter of the two everywhere,
 * so an over-long name is refused the same way on every OS instead of by whatever error each
 * filesystem happens to give (Windows reports ENOENT, which would read as "not found").
 */
const MAX_SEGMENT_BYTES = 255;

export function classifyWorkspacePath(path: string): PathClassification {
  if (path === "") return invalid("path must not be empty");
  if (CONTROL.test(path)) {
    return invalid(`path must not contain control characters: ${JSON.stringify(path)}`);
  }
  if (LONE_SURROGATE.test(path)) {
    return invalid(`path must be valid Unicode, without lone surrogates: ${JSON.stringify(path)}`);
  }
  if (ABSOLUTE.test(path)) {
    return invalid(`path must be relative to the workspace, not absolute: ${path}`);
  }
  const parts = path.split(SEPARATOR);
  if (parts.includes("..")) {
    // Refused even when it would stay inside: `..` is where every escape starts.
    return {
      ok: false,
      code: "path_escape",
      message: `path must not contain parent segments: ${path}`,
    };
  }
  if (RESERVED.test(path)) {
    return invalid(`path must not contain any of < > : " | ? *: ${path}`);
  }
  const segments: string[] = [];
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (endsWithDotOrSpace(part)) {
      return invalid(`path segments must not end in a dot or a space: ${path}`);
    }
    if (isWindowsDeviceName(part)) {
      return invalid(`path must not use the Windows device name ${part}: ${path}`);
    }
    if (Buffer.byteLength(part, "utf8") > MAX_SEGMENT_BYTES) {
      return invalid(`path is too long: ${path}`);
    }
    segments.push(part);
  }
  return { ok: true, segments };
}

function invalid(message: string): PathClassification {
  return { ok: false, code: "invalid_path", message };
}
