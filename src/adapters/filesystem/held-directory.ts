/**
 * A directory the harness made (or found real) inside the workspace and keeps open, so that what
 * it creates there lands in that directory and not wherever its name points a moment later. Node
 * has no openat(2); on Linux `/proc/self/fd/<fd>/<name>` is the same thing: the kernel resolves
 * the descriptor, not the path, and O_NOFOLLOW still applies to `<name>`. Elsewhere (or without a
 * mounted /proc) entries are reached by path, and callers rely on `isStillAtPath` before and after.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { O_NOFOLLOW, O_NONBLOCK, errorCode } from "./fs-errors.js";

const O_DIRECTORY: number = "O_DIRECTORY" in constants ? constants.O_DIRECTORY : 0;

/** Why a directory could not be held: said in the harness's refusal. */
export class DirectoryNotHeldError extends Error {
  override readonly name = "DirectoryNotHeldError";
}

export class HeldDirectory {
  /** Absolute path by which the directory was made and is expected to stay. */
  readonly path: string;
  readonly #fd: number | undefined;
  readonly #viaDescriptor: boolean;
  readonly #dev: bigint;
  readonly #ino: bigint;

  private constructor(path: string, fd: number | undefined, dev: bigint, ino: bigint) {
    this.path = path;
    this.#fd = fd;
    this.#dev = dev;
    this.#ino = ino;
    this.#viaDescriptor = fd !== undefined && reachesThroughProc(fd, dev, ino);
  }

  /**
   * Makes `name` (owner-only) inside `parent` unless it exists, then holds it: a link or anything
   * but a directory there is refused (`shown` names it in the message). The directory is created
   * and opened through the parent's descriptor when there is one.
   */
  static make(parent: HeldDirectory | string, name: string, shown: string): HeldDirectory {
    const path = join(typeof parent === "string" ? parent : parent.path, name);
    const reach = typeof parent === "string" ? path : parent.entry(name);
    try {
      mkdirSync(reach, { mode: 0o700 });
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw notHeld(shown, error);
    }
    const before = lstatOrUndefined(reach);
    if (before?.isSymbolicLink() === true) {
      throw new DirectoryNotHeldError(`${shown} is a symbolic link`);
    }
    if (before !== undefined && !before.isDirectory()) {
      throw new DirectoryNotHeldError(`${shown} is not a directory`);
    }
    let fd: number | undefined;
    if (process.platform !== "win32") {
      try {
        fd = openSync(reach, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
      } catch (error) {
        throw notHeld(shown, error);
      }
    }
    try {
      const stats =
        fd === undefined ? lstatSync(reach, { bigint: true }) : fstatSync(fd, { bigint: true });
      if (!stats.isDirectory()) throw new DirectoryNotHeldError(`${shown} is not a directory`);
      const held = new HeldDirectory(path, fd, stats.dev, stats.ino);
      if (!held.isStillAtPath())
        throw new DirectoryNotHeldError(`${shown} moved while it was made`);
      return held;
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      throw error;
    }
  }

  /** Whether `entry` reaches this very directory whatever its name now leads to. */
  get reachesByDescriptor(): boolean {
    return this.#viaDescriptor;
  }

  /** A path that reaches `name` in this very directory (through the descriptor where possible). */
  entry(name: string): string {
    return this.#viaDescriptor
      ? `/proc/self/fd/${String(this.#fd)}/${name}`
      : join(this.path, name);
  }

  /** Whether the name still leads, without a link, to the directory held. */
  isStillAtPath(): boolean {
    try {
      const stats = lstatSync(this.path, { bigint: true });
      return stats.isDirectory() && stats.dev === this.#dev && stats.ino === this.#ino;
    } catch {
      return false;
    }
  }

  /** Whether the name is gone altogether (removed, or moved away), not replaced. */
  isGone(): boolean {
    try {
      lstatSync(this.path);
      return false;
    } catch (error) {
      return errorCode(error) === "ENOENT";
    }
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
  }
}

/** /proc may be missing (a container without it): then the path is used, and checked. */
function reachesThroughProc(fd: number, dev: bigint, ino: bigint): boolean {
  if (process.platform !== "linux") return false;
  try {
    const stats = statSync(`/proc/self/fd/${String(fd)}`, { bigint: true });
    return stats.dev === dev && stats.ino === ino;
  } catch {
    return false;
  }
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function notHeld(shown: string, error: unknown): DirectoryNotHeldError {
  switch (errorCode(error)) {
    case "ELOOP":
      return new DirectoryNotHeldError(`${shown} is a symbolic link`);
    case "ENOTDIR":
      return new DirectoryNotHeldError(`${shown} is not a directory`);
    case undefined:
    default:
      return new DirectoryNotHeldError(
        `${shown} could not be made (${errorCode(error) ?? "error"})`,
      );
  }
}
