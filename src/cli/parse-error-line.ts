/**
 * node:util's parseArgs errors, as one line: its first sentence says what is wrong; the rest
 * ("To specify a positional argument starting with a '-', place it at the end …") is advice for
 * programs, not for a person who mistyped a flag.
 */
import { errorMessage } from "../core/common/one-line.js";

/** One line; for a value that starts with a dash it keeps node's remedy, which the person needs. */
export function parseErrorLine(error: unknown): string {
  const message = errorMessage(error);
  const remedy = /^To specify an option argument starting with a dash use (.*?)\.?$/m.exec(message);
  const first = firstSentence(message);
  return remedy?.[1] === undefined ? first : `${first} (write it as ${remedy[1]})`;
}

/** A full stop inside a quoted flag or value (`'--a.b'`) does not end the sentence. */
export function firstSentence(message: string): string {
  const firstLine = message.split("\n")[0] ?? "";
  let quoted = false;
  for (let index = 0; index < firstLine.length; index += 1) {
    const char = firstLine[index];
    if (char === "'") quoted = !quoted;
    if (
      char === "." &&
      !quoted &&
      (index === firstLine.length - 1 || firstLine[index + 1] === " ")
    ) {
      return firstLine.slice(0, index);
    }
  }
  return firstLine;
}
