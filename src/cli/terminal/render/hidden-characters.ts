/**
 * Characters a terminal draws as nothing, or as an ordinary blank. Padding a value with them pushes
 * its start off the screen while the screen still looks complete, so text shown to the person
 * turns every run of them into a visible count.
 *
 * Chosen by Unicode property, not by a list: white space of every kind (U+00A0, U+3000, U+2000 to
 * U+200A, U+205F, U+1680, …), default-ignorable code points (zero-width marks, variation selectors,
 * tag characters U+E0000 to U+E0FFF, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, …),
 * controls, format characters (direction marks, overrides and isolates), line and paragraph
 * separators, lone surrogates, private-use and unassigned code points (a terminal has no glyph for
 * them). Added by hand, as VS Code's unicode highlighter does: U+2800 BRAILLE PATTERN BLANK,
 * U+FFFC OBJECT REPLACEMENT CHARACTER and U+133FC, which fonts draw empty.
 */
export const HIDDEN_CLASS =
  "\\p{White_Space}\\p{Default_Ignorable_Code_Point}\\p{Cc}\\p{Cf}\\p{Zs}\\p{Zl}\\p{Zp}\\p{Cs}\\p{Co}\\p{Cn}\\u2800\\ufffc\\u{133fc}";
/** Built at first use: expanding these property classes costs a start-up ~0.7 ms of ICU work. */
let hidden: RegExp | undefined;

/** True for one code point (or lone surrogate) that renders blank or not at all. */
export function isHiddenCharacter(char: string): boolean {
  hidden ??= new RegExp(`^[${HIDDEN_CLASS}]$`, "u");
  return hidden.test(char);
}

/** Ordinary indentation and line breaks stay as they are below this many in a row. */
const ASCII_RUN_LIMIT = 32;
/** Any other blank or invisible characters: a few are escaped one by one, more become a count. */
const HIDDEN_RUN_LIMIT = 4;
/** A base letter with this many combining marks stacked on it is drawn as a smear: counted too. */
const MARK_RUN_LIMIT = 16;
const ASCII_BLANK = /^[ \t\r\n]$/u;
const COMBINING_MARK = /^\p{M}$/u;
const ASCII_NAMES: Readonly<Record<string, readonly [string, string]>> = {
  " ": ["space", "spaces"],
  "\t": ["tab", "tabs"],
  "\r": ["carriage return", "carriage returns"],
  "\n": ["newline", "newlines"],
};
/** A run of at most this many stretches of one character is described stretch by stretch. */
const NAMED_KINDS = 3;

/**
 * Replaces each long run of blank or invisible characters with a visible count: `⟨4100 spaces⟩`,
 * `⟨3000 × U+3164⟩`, `⟨4000 blank: 2000 spaces, 2000 × U+00A0⟩`. Short runs of ordinary spaces,
 * tabs and newlines stay; the few other hidden characters left are for `escapeForTerminal` to show.
 */
export function collapseHiddenRuns(text: string): string {
  // Most short pieces (a streamed reply comes in many) have no candidate at all.
  if (!ANY_CANDIDATE.test(text)) return text;
  let shown = "";
  let copied = 0;
  // A regex of its own for this call: a global one keeps its place in `lastIndex`.
  const candidates = new RegExp(CANDIDATE_SOURCE, "gu");
  // Only where a run could start is looked at; what lies between is copied as it is.
  for (let found = candidates.exec(text); found !== null; found = candidates.exec(text)) {
    const run = runAround(text, found.index, copied);
    if (run === undefined) continue;
    candidates.lastIndex = run.end;
    const characters = Array.from(text.slice(run.start, run.end));
    if (run.kind === "marks" && characters.length < MARK_RUN_LIMIT) continue;
    shown += text.slice(copied, run.start);
    shown +=
      run.kind === "marks"
        ? `⟨${characters.length} combining marks⟩`
        : describeHiddenRun(characters);
    copied = run.end;
  }
  return copied === 0 ? text : shown + text.slice(copied);
}

/**
 * Where a run that may be shown otherwise can be: any character but printable ASCII and the
 * ordinary blanks (every other hidden character and every combining mark is one), or enough
 * ordinary blanks in a row to be counted. Printable ASCII, the bulk of most text, is skipped by
 * the regex engine without a look at the long Unicode classes.
 */
const CANDIDATE_SOURCE = `[^\\x20-\\x7e\\t\\r\\n]|[ \\t\\r\\n]{${ASCII_RUN_LIMIT}}`;
const ANY_CANDIDATE = new RegExp(CANDIDATE_SOURCE, "u");

interface Run {
  readonly kind: "hidden" | "marks";
  readonly start: number;
  readonly end: number;
}

/**
 * The whole run of hidden characters, or of combining marks that are not hidden themselves, that
 * holds the character at `index` (never reaching back before `floor`, where the last run ended);
 * `undefined` for a visible character that is no mark (é, —, 中).
 */
function runAround(text: string, index: number, floor: number): Run | undefined {
  const kindOf = (char: string): Run["kind"] | undefined =>
    isHiddenCharacter(char) ? "hidden" : COMBINING_MARK.test(char) ? "marks" : undefined;
  const kind = kindOf(codePointAt(text, index));
  if (kind === undefined) return undefined;
  let start = index;
  while (start > floor) {
    const before = codePointBefore(text, start);
    if (kindOf(before) !== kind) break;
    start -= before.length;
  }
  let end = index;
  while (end < text.length) {
    const next = codePointAt(text, end);
    if (kindOf(next) !== kind) break;
    end += next.length;
  }
  return { kind, start, end };
}

/** The code point at `index`, as the string iterator gives it (a lone surrogate alone). */
function codePointAt(text: string, index: number): string {
  return text.slice(index, index + ((text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1));
}

function codePointBefore(text: string, end: number): string {
  const low = text.charCodeAt(end - 1);
  const high = end >= 2 ? text.charCodeAt(end - 2) : 0;
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return text.slice(pair ? end - 2 : end - 1, end);
}

function describeHiddenRun(run: readonly string[]): string {
  if (run.length === 0) return "";
  const segments = sameCharacterSegments(run);
  // `⟨4100 spaces⟩\n` reads better than one mixed count; alternating padding is counted as one.
  if (segments.length <= NAMED_KINDS) {
    return segments
      .map(({ char, count }) =>
        count < runLimit([char]) ? char.repeat(count) : `⟨${describeKind(char, count)}⟩`,
      )
      .join("");
  }
  if (run.length < runLimit(run)) return run.join("");
  const counts = new Map<string, number>();
  for (const char of run) counts.set(char, (counts.get(char) ?? 0) + 1);
  const kinds = [...counts].map(([char, count]) => describeKind(char, count));
  const named = kinds.slice(0, NAMED_KINDS).join(", ");
  const more = kinds.length > NAMED_KINDS ? ", …" : "";
  return `⟨${run.length} blank: ${named}${more}⟩`;
}

function runLimit(run: readonly string[]): number {
  return run.every((char) => ASCII_BLANK.test(char)) ? ASCII_RUN_LIMIT : HIDDEN_RUN_LIMIT;
}

function sameCharacterSegments(run: readonly string[]): { char: string; count: number }[] {
  const segments: { char: string; count: number }[] = [];
  for (const char of run) {
    const last = segments.at(-1);
    if (last?.char === char) last.count += 1;
    else segments.push({ char, count: 1 });
  }
  return segments;
}

function describeKind(char: string, count: number): string {
  const names = ASCII_NAMES[char];
  if (names !== undefined) return `${count} ${count === 1 ? names[0] : names[1]}`;
  const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return `${count} × U+${code}`;
}
