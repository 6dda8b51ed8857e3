/**
 * Where a long command output is saved whole: `.agent/outputs/<call-id>.log` in the workspace, so
 * the model can read it with read_file. `.agent` is the harness's: made only when a first output
 * is saved, with a `.gitignore` that keeps it out of commits; the file tools refuse to write there,
 * and the sandbox binds it read-only once it exists. Each file is created new (never an existing
 * name, never through a link, only a regular file) and checked to have landed where it should: a
 * command that swapped `.agent` for a link while it ran gets nothing written outside.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { OutputSpill, OutputSpillFile, OutputSpillStore } from "../../core/command-runner.js";
import { O_NOFOLLOW, O_NONBLOCK, errorCode } from "./fs-errors.js";

/** The harness-owned directory inside the workspace. */
export const HARNESS_DIRECTORY = ".agent";
/** Saved outputs, relative to the workspace, as the model names them. */
export const OUTPUTS_DIRECTORY = ".agent/outputs";

const MAX_NAME_ATTEMPTS = 20;

export class WorkspaceOutputStore implements OutputSpillStore {
  /**
   * Absolute path of `.agent` in the workspace's real path, whether or not it exists yet: the file
   * tools refuse it, the sandbox binds it read-only once it is there.
   */
  readonly realPath: string;
  readonly #outputs: string;

  private constructor(realPath: string) {
    this.realPath = realPath;
    this.#outputs = join(realPath, "outputs");
  }

  /** Nothing is created until an output overflows. */
  static open(workspace: string): WorkspaceOutputStore {
    return new WorkspaceOutputStore(join(realpathSync.native(workspace), HARNESS_DIRECTORY));
  }

  spillFor(callId: string): OutputSpill {
    return { open: () => this.#create(fileStem(callId)) };
  }

  /**
   * Makes `.agent/outputs` and `.agent/.gitignore` when missing, then a new file. A `.agent` or
   * `outputs` that is a link or not a directory leaves nowhere to save: the output is only cut.
   */
  #create(stem: string): OutputSpillFile | undefined {
    const outputs = this.#outputs;
    try {
      ensureRealDirectory(this.realPath);
      ensureRealDirectory(outputs);
      writeGitignore(join(this.realPath, ".gitignore"));
    } catch {
      return undefined;
    }
    for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt += 1) {
      const name = attempt === 1 ? `${stem}.log` : `${stem}-${attempt}.log`;
      const path = join(outputs, name);
      let fd: number;
      try {
        fd = openSync(
          path,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW | O_NONBLOCK,
          0o600,
        );
      } catch (error) {
        if (errorCode(error) === "EEXIST") continue;
        return undefined;
      }
      if (!fstatSync(fd).isFile() || !landedAt(fd, path)) {
        closeSync(fd);
        return undefined;
      }
      return descriptorFile(fd, `${OUTPUTS_DIRECTORY}/${name}`);
    }
    return undefined;
  }
}

function descriptorFile(fd: number, path: string): OutputSpillFile {
  let open = true;
  return {
    path,
    write: (bytes) => {
      for (let written = 0; written < bytes.length;) {
        written += writeSync(fd, bytes, written, bytes.length - written);
      }
    },
    close: () => {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/**
 * Whether the descriptor is the file at `path`, real directories all the way: Linux names the
 * file a descriptor holds in /proc; elsewhere the directory's real path is checked again.
 */
function landedAt(fd: number, path: string): boolean {
  try {
    return realpathSync.native(`/proc/self/fd/${fd}`) === path;
  } catch {
    try {
      return realpathSync.native(path) === path;
    } catch {
      return false;
    }
  }
}

function ensureRealDirectory(path: string): void {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
  }
  if (!isRealDirectory(path)) throw new Error(`${path} is not a directory`);
}

function isRealDirectory(path: string): boolean {
  return lstatSync(path).isDirectory();
}

function writeGitignore(path: string): void {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW | O_NONBLOCK,
      0o644,
    );
  } catch (error) {
    if (errorCode(error) === "EEXIST") return;
    throw error;
  }
  try {
    writeSync(fd, "# Written by agent-harness: saved command outputs, never committed.\n*\n");
  } finally {
    closeSync(fd);
  }
}

/** A call id as a file name: the model chooses ids, so only a safe alphabet survives. */
export function fileStem(callId: string): string {
  const safe = callId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80);
  return safe === "" || /^[_-]+$/.test(safe) ? `call${safe}` : safe;
}
