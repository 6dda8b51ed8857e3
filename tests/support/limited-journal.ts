import type { JournalRecord, RunJournal } from "../../src/core/journal/journal-records.js";

/**
 * Keeps records in memory and, like the file journal, refuses to grow past `limit` bytes. Sizes are
 * JSON lengths: exact bytes for the ASCII the tests journal (lone surrogates are written escaped).
 */
export class LimitedJournal implements RunJournal {
  readonly records: JournalRecord[] = [];
  bytes = 0;
  constructor(readonly limit = 64 * 1024 * 1024) {}
  append(record: JournalRecord): Promise<void> {
    const size = JSON.stringify(record).length;
    if (this.bytes + size > this.limit) return Promise.reject(new Error("journal full"));
    this.bytes += size;
    this.records.push(record);
    return Promise.resolve();
  }
  spaceLeft(): number {
    return this.limit - this.bytes;
  }
}
