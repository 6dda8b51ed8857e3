/**
 * Where a long command output is saved whole: `.agent/outputs/<call-id>.log` in the workspace, so
 * the model can read it with read_file. `.agent` is the harness's: made before the first command,
 * with a `.gitignore` that keeps it out of commits; the file tools refuse to write there, and the
 * sandbox binds it read-only. The directories are held open (held-directory.ts) and their
 * identity proved before every command and around every file made: a command on the host that
 * swaps `.agent` or `.agent/outputs` for a link or another directory, even while the harness is
 * creating a file, gets nothing made outside, and the next command is refused. Each file is
 * created new (never an existing name, never through a link, a regular file with one name) and
 * checked to have landed where it should.
 */
import { closeSync, lstatSync, readdirSync, realpathSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import {
  OutputStoreError,
  type OutputSpill,
  type OutputSpillFile,
  type OutputSpillStore,
} from "../../core/ports/command-runner.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { cappedWriter } from "./capped-spill-file.js";
import { errorCode } from "./fs-errors.js";
import { DirectoryNotHeldError } from "./held-directory.js";
import {
  CREATE_NEW,
  HARNESS_DIRECTORY,
  OUTPUTS_DIRECTORY,
  heldProblem,
  makeStore,
  type HeldStore,
} from "./output-store-layout.js";
import { isOpenedAt, openRegularFileSync } from "./safe-open.js";

export { HARNESS_DIRECTORY, OUTPUTS_DIRECTORY } from "./output-store-layout.js";

const MAX_NAME_ATTEMPTS = 20;
/**
 * Saved outputs kept: when one is made, all but the newest this many are removed, so a long
 * session (or a command run in a loop) does not fill the user's disk a gigabyte at a time.
 */
export const KEPT_OUTPUTS = 50;
/**
 * A saved output keeps at most this many bytes: its first and last halves, the middle cut and
 * marked (capped-spill-file.ts); the tool result says so.
 */
export const SAVED_OUTPUT_CAP_BYTES = 8 * 1024 * 1024;
/**
 * The saved outputs together stay under this, besides the count: when one is made, older ones are
 * removed, oldest first, until the rest and a full new one fit.
 */
export const OUTPUTS_BUDGET_BYTES = 64 * 1024 * 1024;

export interface OutputStoreLimits {
  readonly savedOutputCapBytes: number;
  readonly outputsBudgetBytes: number;
}

const DEFAULT_LIMITS: OutputStoreLimits = {
  savedOutputCapBytes: SAVED_OUTPUT_CAP_BYTES,
  outputsBudgetBytes: OUTPUTS_BUDGET_BYTES,
};

export class WorkspaceOutputStore implements OutputSpillStore {
  /**
   * Absolute path of `.agent` in the workspace's real path, whether or not it exists yet: the file
   * tools refuse it, the sandbox binds it read-only once it is there.
   */
  readonly realPath: string;
  readonly #limits: OutputStoreLimits;
  #held: HeldStore | undefined;

  private constructor(realPath: string, limits: OutputStoreLimits) {
    this.realPath = realPath;
    this.#limits = limits;
  }

  /** Nothing is created until the first command (or the first save). */
  static open(workspace: string, limits: OutputStoreLimits = DEFAULT_LIMITS): WorkspaceOutputStore {
    return new WorkspaceOutputStore(
      join(realpathSync.native(workspace), HARNESS_DIRECTORY),
      limits,
    );
  }

  /**
   * Before each command: makes `.agent/outputs` and its `.gitignore` the first time (so the sandbox
   * finds them and binds them read-only), then proves they are still the ones made. A command that
   * replaced them (a link, another directory, a FIFO, a second hard link) leaves no store the
   * harness can trust, so the next command does not run. What is gone altogether (`git clean -x`,
   * `rm -r .agent/outputs`) is made again, as the first time.
   */
  prepareForCommand(): void {
    let problem: string | undefined;
    try {
      problem = this.#check();
    } catch (error) {
      // Anything unforeseen (EMFILE, …) fails closed too: the command does not run.
      problem = `it could not be checked (${firstLineOfError(error)})`;
    }
    if (problem !== undefined) throw new OutputStoreError(storeRefusal(problem));
  }

  spillFor(callId: string): OutputSpill {
    return { open: () => this.#create(fileStem(callId)) };
  }

  /** What is wrong with the store, after making it where it is missing; undefined when it is ours. */
  #check(): string | undefined {
    const held = this.#held;
    if (held !== undefined) {
      const problem = heldProblem(held);
      if (problem === undefined) return undefined;
      if (!problem.gone) return problem.text;
      this.#release();
    }
    try {
      this.#held = makeStore(this.realPath);
      return undefined;
    } catch (error) {
      if (error instanceof DirectoryNotHeldError) return error.message;
      throw error;
    }
  }

  #release(): void {
    this.#held?.outputs.close();
    this.#held?.agent.close();
    this.#held = undefined;
  }

  /**
   * A new file in the held `.agent/outputs`, or undefined (the output is then only cut) when the
   * store is not ours now or the file did not land where it should: a command runs meanwhile and
   * may swap `.agent` while the harness creates the file; such a file is removed again.
   */
  #create(stem: string): OutputSpillFile | undefined {
    if (this.#check() !== undefined) return undefined;
    const held = this.#held;
    if (held === undefined) return undefined;
    for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt += 1) {
      const name = attempt === 1 ? `${stem}.log` : `${stem}-${attempt}.log`;
      let fd: number;
      try {
        fd = openRegularFileSync(held.outputs.entry(name), CREATE_NEW, {
          mode: 0o600,
          oneName: true,
        }).handle;
      } catch (error) {
        // A name taken by anything (a file, a link, a FIFO): try the next one.
        if (errorCode(error) === "EEXIST") continue;
        return undefined;
      }
      if (heldProblem(held) !== undefined || !isOpenedAt(fd, join(held.outputs.path, name))) {
        closeSync(fd);
        // Only through the descriptor is the name surely the file just made; by path it might
        // already be another one.
        if (held.outputs.reachesByDescriptor) rmSync(held.outputs.entry(name), { force: true });
        return undefined;
      }
      removeOlderOutputs(
        held,
        name,
        this.#limits.outputsBudgetBytes - this.#limits.savedOutputCapBytes,
      );
      return descriptorFile(fd, `${OUTPUTS_DIRECTORY}/${name}`, this.#limits.savedOutputCapBytes);
    }
    return undefined;
  }
}

/**
 * Keeps the newest `KEPT_OUTPUTS` saved outputs (`made` among them), and of the others only as
 * many, newest first, as fit in `budget` bytes; the rest are removed, oldest first. Only
 * through the held descriptor: by path, a name might lead somewhere else by now. Removing a name
 * never follows a link, and a failure here costs disk space, never the command.
 */
function removeOlderOutputs(held: HeldStore, made: string, budget: number): void {
  if (!held.outputs.reachesByDescriptor) return;
  try {
    const saved = readdirSync(held.outputs.entry(""))
      .filter((name) => name.endsWith(".log") && name !== made)
      .map((name) => ({ name, stats: lstatSync(held.outputs.entry(name), { bigint: true }) }))
      .filter(({ stats }) => stats.isFile())
      .sort((a, b) => (a.stats.mtimeNs < b.stats.mtimeNs ? 1 : -1));
    let total = 0;
    saved.forEach(({ name, stats }, index) => {
      total += Number(stats.size);
      if (index >= KEPT_OUTPUTS - 1 || total > budget) {
        rmSync(held.outputs.entry(name), { force: true });
      }
    });
  } catch {
    // Disk space only.
  }
}

/** Refusal of a command; the shell tool adds that the command did not run. */
function storeRefusal(problem: string): string {
  return (
    `The harness saves long command outputs in ${OUTPUTS_DIRECTORY}, and ${problem}; no ` +
    `command runs until the person removes or repairs ${HARNESS_DIRECTORY}, which the harness ` +
    `makes again when it is gone`
  );
}

function descriptorFile(fd: number, path: string, cap: number): OutputSpillFile {
  let open = true;
  let cut = 0;
  const writer = cappedWriter((bytes) => {
    for (let written = 0; written < bytes.length;) {
      written += writeSync(fd, bytes, written, bytes.length - written);
    }
  }, cap);
  return {
    path,
    write: (bytes) => {
      writer.write(bytes);
    },
    close: () => {
      if (!open) return;
      open = false;
      try {
        cut = writer.finish();
      } finally {
        closeSync(fd);
      }
    },
    cutBytes: () => cut,
  };
}

/** A call id as a file name: the model chooses ids, so only a safe alphabet survives. */
export function fileStem(callId: string): string {
  const safe = callId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80);
  return safe === "" || /^[_-]+$/.test(safe) ? `call${safe}` : safe;
}
