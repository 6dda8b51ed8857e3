/**
 * Reads one AGENTS.md without trusting what is at its name: never through a link at its last
 * component (a workspace file could point anywhere: ~/.ssh, /dev/zero), never blocking on a FIFO,
 * only a regular file, only text, and only up to a size. A refusal says why in a few words, for
 * the status line.
 */
import { closeSync, constants, lstatSync, realpathSync } from "node:fs";
import { dirname } from "node:path";
import {
  errorCode,
  openRegularFileSync,
  readAtMostSync,
  UnsafeFileError,
} from "../filesystem/index.js";
import type { InstructionPlace } from "./instruction-paths.js";
import { currentUid, untrustedOwner } from "./owner-check.js";

/** A file larger than this is not read at all: instructions are a page or two, not a log. */
export const HUGE_INSTRUCTIONS_BYTES = 256 * 1024;

export type InstructionRead =
  | { readonly kind: "read"; readonly text: string }
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly reason: string };

export function readInstructionFile(
  place: InstructionPlace,
  uid: number | undefined = currentUid(),
): InstructionRead {
  const repository = place.repository;
  if (repository !== undefined) {
    // Before the file is opened: the directories say whether it may be read at all. Only a file
    // that is there is named on the status line.
    if (!exists(place.path)) return { kind: "missing" };
    const why =
      untrustedOwner(repository.root, `the repository root ${repository.rootLabel}`, uid) ??
      untrustedOwner(dirname(place.path), "its directory", uid);
    if (why !== undefined) return { kind: "refused", reason: why };
  }
  let fd: number;
  let size: number;
  try {
    const path = place.personal ? realpathSync.native(place.path) : place.path;
    const opened = openRegularFileSync(path, constants.O_RDONLY);
    fd = opened.handle;
    size = opened.stats.size;
    const why =
      repository === undefined ? undefined : untrustedOwner(path, "it", uid, opened.stats.uid);
    if (why !== undefined) {
      closeSync(fd);
      return { kind: "refused", reason: why };
    }
  } catch (error) {
    return refusedOpen(error);
  }
  try {
    if (size > HUGE_INSTRUCTIONS_BYTES) return tooLarge();
    const bytes = readAtMostSync(fd, HUGE_INSTRUCTIONS_BYTES);
    if (bytes === undefined) return tooLarge();
    const text = utf8Text(bytes);
    if (text === undefined) return { kind: "refused", reason: "it is not UTF-8 text" };
    return { kind: "read", text };
  } catch (error) {
    return { kind: "refused", reason: `it could not be read (${errorCode(error) ?? "error"})` };
  } finally {
    closeSync(fd);
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    const code = errorCode(error);
    return code !== "ENOENT" && code !== "ENOTDIR";
  }
}

function refusedOpen(error: unknown): InstructionRead {
  const code = errorCode(error);
  if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
  if (error instanceof UnsafeFileError) return { kind: "refused", reason: error.message };
  if (code === "ELOOP") return { kind: "refused", reason: "it is a symbolic link" };
  return { kind: "refused", reason: `it could not be opened (${code ?? "error"})` };
}

function tooLarge(): InstructionRead {
  return {
    kind: "refused",
    reason: `it is larger than ${String(HUGE_INSTRUCTIONS_BYTES / 1024)} KiB`,
  };
}

/** Text only: a NUL byte or a sequence that is not UTF-8 means a binary file. */
function utf8Text(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return undefined;
  }
}
