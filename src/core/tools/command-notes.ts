/**
 * The sandbox's notes about one command (a limit it hit, a file the host loads later that the
 * command made), kept apart from what the command printed. The model reads them as `[sandbox] …`
 * lines after the output; the person is shown them from the call's facts, never picked out of the
 * text, where any command can print the same words, and where a note holding a newline (a path
 * may) would no longer read as one line.
 */
const MARK = "[sandbox] ";

/** The text with one `[sandbox] <note>` line per note after it, on a line of its own. */
export function withNoteLines(text: string, notes: readonly string[]): string {
  if (notes.length === 0) return text;
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  return `${text}${separator}${noteLines(notes)}`;
}

/**
 * The text without the lines `withNoteLines` added for these notes (the line break before them
 * stays): only that exact ending is taken off, so lines a command printed to look like notes stay
 * part of its output. A text that no longer ends with them (cut to fit) is returned as it is.
 */
export function withoutNoteLines(text: string, notes: readonly string[]): string {
  const lines = noteLines(notes);
  return notes.length > 0 && text.endsWith(lines) ? text.slice(0, -lines.length) : text;
}

function noteLines(notes: readonly string[]): string {
  return notes.map((note) => `${MARK}${note}`).join("\n");
}
