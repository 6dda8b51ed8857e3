/**
 * The journal schema's verdict (journal-schema.ts) without zod, for the lines it accepts. A resume
 * replays every record of the run (~6,000 for 999 calls), and zod's parse of each, with zod's own
 * load and the schema's build, was most of what a long run's resume paid before its first request.
 *
 * The check only ever vouches (src/core/common/vouch.ts): `vouchedJournalLine` returns what zod's
 * parse would return, or `undefined` when it cannot say, and the caller then asks zod, which
 * refuses the line with its own message (or accepts a shape left to it). So a line is refused
 * exactly as before; only an accepted one is faster. What it checks is the schema itself, turned
 * into data by `npm run journal-line-shape` (journal-line-shape.generated.ts;
 * tests/adapters/journal/journal-line-check.test.ts checks that file against the schema and this
 * check against zod's parse).
 */
import { builtOnce } from "../../core/common/built-once.js";
import { vouchFor } from "../../core/common/vouch.js";
import { JOURNAL_LINE_SHAPE } from "./journal-line-shape.generated.js";
import type { JournalLine } from "./journal-schema.js";

const vouchLine = builtOnce(() => vouchFor(JOURNAL_LINE_SHAPE));

/** The line as the schema's parse gives it, or `undefined` when zod has to be asked. */
export function vouchedJournalLine(value: unknown): JournalLine | undefined {
  return vouchLine()(value) as JournalLine | undefined;
}
