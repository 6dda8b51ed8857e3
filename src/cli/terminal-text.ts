/**
 * Text from the model shown to a person must not be able to drive the terminal: an ESC sequence could
 * erase the approval prompt and draw a harmless-looking one. Every C0/C1 control character, DEL, and
 * the invisible direction and line-separator marks (which can reorder what a person reads) is shown
 * as a visible `\u{…}` escape instead. Newlines and tabs are escaped too so one value stays on one
 * line of the prompt.
 */
export function escapeForTerminal(text: string): string {
  let shown = "";
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    shown += isUnsafe(codePoint) ? visibleEscape(char, codePoint) : char;
  }
  return shown;
}

function isUnsafe(codePoint: number): boolean {
  return (
    codePoint <= 0x1f ||
    (codePoint >= 0x7f && codePoint <= 0x9f) ||
    codePoint === 0x061c ||
    (codePoint >= 0x200b && codePoint <= 0x200f) ||
    (codePoint >= 0x2028 && codePoint <= 0x202e) ||
    (codePoint >= 0x2066 && codePoint <= 0x2069) ||
    codePoint === 0xfeff
  );
}

function visibleEscape(char: string, codePoint: number): string {
  switch (char) {
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    default:
      return `\\u{${codePoint.toString(16).padStart(4, "0")}}`;
  }
}

/** Shortens for display without cutting a surrogate pair, and says how much was left out. */
export function truncateForDisplay(text: string, maxChars: number): string {
  const characters = Array.from(text);
  if (characters.length <= maxChars) return text;
  const omitted = characters.length - maxChars;
  return `${characters.slice(0, maxChars).join("")}… (${omitted} more characters not shown)`;
}
