const DEFAULT_MAX_LENGTH = 300;

/**
 * Error text for a terminal line: control characters (newlines, escapes) become spaces so a provider
 * message cannot repaint the screen or span lines, and long text is cut with an ellipsis.
 */
export function oneLine(text: string, maxLength = DEFAULT_MAX_LENGTH): string {
  const flat = text
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length <= maxLength ? flat : `${flat.slice(0, maxLength - 1)}…`;
}

/** What was thrown, as text: an Error's message, anything else as `String` shows it. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What was thrown, as its first line of text: the rest of a platform message is detail. */
export function firstLineOfError(error: unknown): string {
  const text = errorMessage(error);
  return text.split("\n")[0] ?? text;
}

/**
 * Shorter values are not secrets worth hiding (`OPENAI_API_KEY=x` for a local server) and would
 * garble every message they occur in; real keys are far longer.
 */
export const MIN_SECRET_LENGTH = 8;

/**
 * Replaces every occurrence of each secret of at least MIN_SECRET_LENGTH characters; used on
 * anything a provider might echo back.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) result = result.split(secret).join("[redacted]");
  }
  return result;
}
