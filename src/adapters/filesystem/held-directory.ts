/**
 * A directory the harness made (or found real) inside the workspace and keeps open, so that what
 * it creates there lands in that directory and not wherever its name points a moment later. Node
 * has no openat(2); on Linux `/proc/self/fd/<fd>/<name>` is the same thing: the kernel resolves
 * the descriptor, not the path, and O_NOFOLLOW still applies to `<name>`. Elsewhere (or without a
 * mounted /proc) entries are reached by path, and callers rely on `isStillAtPath` before and after.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, errorCode } from "./fs-errors.js";
import { isOpenedAt } from "./safe-open.js";

/** Why a directory could not be held, in words that name it (`shown`): said in refusals. */
export class DirectoryNotHeldError extends Error {
  override readonly name = "DirectoryNotHeldError";
  constructor(
    readonly reason: "symbolic-link" | "not-directory" | "moved" | "failed",
    message: string,
    /** The platform's error code for `failed` (EACCES, ENOSPC, …). */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface MakeOptions {
  /** Names the directory in messages (`.agent/outputs`, `src/new`). */
  readonly shown: string;
  /** Mode for a directory that is made (the umask applies); the harness's own are owner-only. */
  readonly mode: number;
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
   * Makes `name` inside `parent` unless it exists, then holds it: a link or anything but a
   * directory there is refused. The directory is made and opened through the parent's
   * descriptor when there is one.
   */
  static make(parent: HeldDirectory | string, name: string, options: MakeOptions): HeldDirectory {
    const path = join(typeof parent === "string" ? parent : parent.path, name);
    const reach = typeof parent === "string" ? path : parent.entry(name);
    try {
      mkdirSync(reach, { mode: options.mode });
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw notHeld(options.shown, error);
    }
    return HeldDirectory.#hold(path, reach, options.shown);
  }

  /** Holds the existing directory whose real path is `path` (no link anywhere on it). */
  static open(path: string, shown: string): HeldDirectory {
    return HeldDirectory.#hold(path, path, shown);
  }

  static #hold(path: string, reach: string, shown: string): HeldDirectory {
    const before = lstatOrUndefined(reach);
    if (before?.isSymbolicLink() === true) throw symbolicLink(shown);
    if (before !== undefined && !before.isDirectory()) throw notDirectory(shown);
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
      if (!stats.isDirectory()) throw notDirectory(shown);
      const held = new HeldDirectory(path, fd, stats.dev, stats.ino);
      // O_NOFOLLOW covers the last name only: a link swapped in higher up shows here.
      if (!held.isStillAtPath() || (fd !== undefined && !isOpenedAt(fd, path))) {
        throw new DirectoryNotHeldError("moved", `${shown} moved while it was opened`);
      }
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

function symbolicLink(shown: string): DirectoryNotHeldError {
  return new DirectoryNotHeldError("symbolic-link", `${shown} is a symbolic link`);
}

function notDirectory(shown: string): DirectoryNotHeldError {
  return new DirectoryNotHeldError("not-directory", `${shown} is not a directory`);
}

function notHeld(shown: string, error: unknown): DirectoryNotHeldError {
  const code = errorCode(error);
  switch (code) {
    case "ELOOP":
      return symbolicLink(shown);
    case "ENOTDIR":
      return notDirectory(shown);
    case undefined:
    default:
      return new DirectoryNotHeldError(
        "failed",
        `${shown} could not be made (${code ?? "error"})`,
        code,
      );
  }
}
