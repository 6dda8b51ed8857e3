/**
 * The journal schema's verdict (journal-schema.ts) without zod, for the lines it accepts. A resume
 * replays every record of the run (~6,000 for 999 calls), and zod's parse of each, with zod's own
 * load and the schema's build, was most of what a long run's resume paid before its first request.
 *
 * The check only ever vouches (src/core/common/vouch.ts): `vouchedJournalLine` returns what zod's
 * parse would return, or `undefined` when it cannot say, and the caller then asks zod, which
 * refuses the line with its own message (or accepts a shape left to it). So a line is refused
 * exactly as before; only an accepted one is faster. What it checks is the schema itself, turned
 * into data and into straight-line code by `npm run journal-line-shape`
 * (journal-line-shape.generated.ts, journal-line-vouch.generated.ts;
 * tests/adapters/journal/journal-line-check.test.ts checks that
 * file against the schema and this check against zod's parse). The code, not `vouchFor` over the
 * data: a resume runs it ~5,000 times before its first request, and `vouchFor`'s closures, shared
 * by every node of a kind, ran that mostly in the interpreter.
 */
import { vouchJournalLineValue } from "./journal-line-vouch.generated.js";
import type { JournalLine } from "./journal-schema.js";

/** The line as the schema's parse gives it, or `undefined` when zod has to be asked. */
export function vouchedJournalLine(value: unknown): JournalLine | undefined {
  return vouchJournalLineValue(value) as JournalLine | undefined;
}
