/**
 * The pure part of `edit_file`: exact replacement that keeps the file's BOM and line endings.
 * Replacement is by index and slice, never `String.replace`, whose `$&` and `$1` would rewrite the
 * model's text.
 */
import type { EditFileRequest } from "../../core/ports/filesystem.js";

export type EditOutcome =
  | { readonly kind: "edited"; readonly text: string; readonly replaced: number }
  | { readonly kind: "no_match" }
  | { readonly kind: "ambiguous"; readonly occurrences: number }
  /** The edited text would be `bytes` UTF-8 bytes, over `maxBytes`: it was never built. */
  | { readonly kind: "too_large"; readonly bytes: number };

const BOM = "\uFEFF";

/**
 * `original` is the decoded file, BOM included if it has one. The size of the result is worked out
 * before it is built, so a `replace_all` that would grow a file a hundredfold costs no memory.
 */
export function applyEdit(
  original: string,
  edit: EditFileRequest,
  maxBytes = Number.POSITIVE_INFINITY,
): EditOutcome {
  const hasBom = original.startsWith(BOM);
  const body = hasBom ? original.slice(BOM.length) : original;
  const candidates = lineEndingCandidates(body, edit);
  for (const candidate of candidates) {
    const occurrences = countOccurrences(body, candidate.oldString);
    if (occurrences === 0) continue;
    if (occurrences > 1 && !edit.replaceAll) return { kind: "ambiguous", occurrences };
    const count = edit.replaceAll ? occurrences : 1;
    const bytes =
      Buffer.byteLength(original, "utf8") +
      count *
        (Buffer.byteLength(candidate.newString, "utf8") -
          Buffer.byteLength(candidate.oldString, "utf8"));
    if (bytes > maxBytes) return { kind: "too_large", bytes };
    const replaced = edit.replaceAll
      ? body.split(candidate.oldString).join(candidate.newString)
      : replaceFirst(body, candidate.oldString, candidate.newString);
    return {
      kind: "edited",
      text: (hasBom ? BOM : "") + replaced,
      replaced: count,
    };
  }
  return { kind: "no_match" };
}

/**
 * Models almost always send `\n`. In a CRLF file the text is first tried with CRLF endings (and a
 * CRLF text in an LF file with LF endings), then exactly as sent, for files with mixed endings.
 */
function lineEndingCandidates(
  body: string,
  edit: EditFileRequest,
): { oldString: string; newString: string }[] {
  const usesCrlf = body.includes("\r\n");
  const toFileEndings = (text: string): string =>
    usesCrlf ? text.replace(/\r?\n/gu, "\r\n") : text.replace(/\r\n/gu, "\n");
  const converted = {
    oldString: toFileEndings(edit.oldString),
    newString: toFileEndings(edit.newString),
  };
  const asSent = { oldString: edit.oldString, newString: edit.newString };
  return converted.oldString === asSent.oldString ? [converted] : [converted, asSent];
}

function countOccurrences(text: string, search: string): number {
  // The tool's schema refuses an empty old_string, but the port does not: "" is found at every
  // index without advancing, so counting it would never end.
  if (search === "") return 0;
  let count = 0;
  for (
    let index = text.indexOf(search);
    index !== -1;
    index = text.indexOf(search, index + search.length)
  ) {
    count += 1;
  }
  return count;
}

function replaceFirst(text: string, search: string, replacement: string): string {
  const index = text.indexOf(search);
  return text.slice(0, index) + replacement + text.slice(index + search.length);
}
