/**
 * Where a person's message names a workspace file to attach (`fix @src/x.ts`). The rules, chosen so
 * that ordinary text is never taken for a mention:
 * - `@` starts a word: it opens the text or follows whitespace or an opening `(`, `[` or `{`; so
 *   an email address (`a@b.com`) or `user@host` is not a mention;
 * - the path runs to the next whitespace, less any trailing `.,:;!?)]}'"` and backticks (a
 *   sentence's own punctuation: `see @a.ts.` names `a.ts`);
 * - `@"path with spaces"` names everything up to the next `"` (a path never holds one); without
 *   that closing quote it is not a mention;
 * - a lone `@`, or one followed only by punctuation, is not a mention.
 * The text itself is never changed: a mention stays in it as typed.
 */

export interface Mention {
  /** The path as the person wrote it, without the `@`, the quotes or trailing punctuation. */
  readonly path: string;
  /** The mention as it reads in the text: `@src/x.ts`, `@"my notes.md"`. */
  readonly written: string;
}

const OPENS_WORD = /[\s([{]/u;
const TRAILING = /[.,:;!?)\]}'"`]+$/u;

/** The mentions of `text`, in order, each path once (its first writing). */
export function parseMentions(text: string): Mention[] {
  const found: Mention[] = [];
  const seen = new Set<string>();
  let index = text.indexOf("@");
  while (index >= 0) {
    const mention = opensWord(text, index) ? mentionAt(text, index) : undefined;
    if (mention !== undefined && !seen.has(mention.path)) {
      seen.add(mention.path);
      found.push(mention);
    }
    index = text.indexOf("@", index + 1);
  }
  return found;
}

function opensWord(text: string, at: number): boolean {
  return at === 0 || OPENS_WORD.test(text[at - 1] ?? "");
}

function mentionAt(text: string, at: number): Mention | undefined {
  if (text[at + 1] === '"') {
    const close = text.indexOf('"', at + 2);
    if (close < 0) return undefined;
    const path = text.slice(at + 2, close);
    return path.trim() === "" ? undefined : { path, written: text.slice(at, close + 1) };
  }
  const word = /^\S*/u.exec(text.slice(at + 1))?.[0] ?? "";
  const path = word.replace(TRAILING, "");
  return path === "" ? undefined : { path, written: `@${path}` };
}
