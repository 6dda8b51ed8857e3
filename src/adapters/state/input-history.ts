/**
 * The conversation's input history across sessions: one JSON string per line in `history.jsonl`
 * at the state root (owner-only, outside every workspace, hidden from sandboxed commands). It is
 * opened as every harness file is: never through a symbolic link, only a regular file with one
 * name, and kept open, so a command that swaps the name afterwards redirects nothing.
 */
import { closeSync, writeSync } from "node:fs";
import { join } from "node:path";
import { openHarnessOutput, readHarnessInput } from "../filesystem/index.js";

const FILE_NAME = "history.jsonl";
/** Lines kept for Up/Down; older ones stay in the file but are not offered. */
export const HISTORY_ENTRIES = 500;
/** A longer file is not read (its newest lines would need a reverse read): history starts empty. */
const MAX_HISTORY_BYTES = 4 * 1024 * 1024;
/** A line this long is a paste typed out, not a line worth recalling. */
const MAX_ENTRY_CHARS = 4096;

export function inputHistoryPath(stateRoot: string): string {
  return join(stateRoot, FILE_NAME);
}

export class InputHistoryFile {
  readonly path: string;
  readonly #fd: number;
  /** Oldest first. */
  readonly entries: readonly string[];

  private constructor(path: string, fd: number, entries: readonly string[]) {
    this.path = path;
    this.#fd = fd;
    this.entries = entries;
  }

  /** Throws `HarnessFileError` (a link, a FIFO, too large, not the person's to read). */
  static open(stateRoot: string): InputHistoryFile {
    const path = inputHistoryPath(stateRoot);
    const output = openHarnessOutput(path, { truncate: false });
    try {
      return new InputHistoryFile(
        path,
        output.fd,
        parseEntries(readHarnessInput(path, MAX_HISTORY_BYTES)),
      );
    } catch (error) {
      closeSync(output.fd);
      throw error;
    }
  }

  /** Appends one line; a line too long or blank is not kept. A failed write loses only history. */
  add(line: string): void {
    if (line.trim() === "" || line.length > MAX_ENTRY_CHARS) return;
    try {
      writeSync(this.#fd, `${JSON.stringify(line)}\n`);
    } catch {
      // History is a convenience: a full disk must not end the conversation.
    }
  }

  close(): void {
    closeSync(this.#fd);
  }
}

/** Each line a JSON string; anything else (a torn last line, a foreign line) is skipped. */
function parseEntries(text: string): string[] {
  const entries: string[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof value === "string" && value.trim() !== "") entries.push(value);
  }
  return entries.slice(-HISTORY_ENTRIES);
}
