/**
 * Names Windows gives a meaning of its own. Checked on every OS because a workspace written on
 * Linux is checked out on Windows, where `nul.txt` opens a device and `a. ` is the file `a`.
 */

// Windows compares the part before the first dot, ignoring trailing spaces, in any case; the
// superscript digits ¹²³ (U+00B9, U+00B2, U+00B3) are also accepted after COM/LPT. Escaped: the
// bundle stays ASCII (scripts/bundle.js), so V8 holds its source in one byte a character.
const DEVICE_NAME =
  /^(?:con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$|clock\$)$/iu;

/** True when `segment` names a Windows device, with or without an extension. */
export function isWindowsDeviceName(segment: string): boolean {
  const stem = segment.split(".", 1)[0] ?? "";
  return DEVICE_NAME.test(stem.trimEnd());
}

/** Windows strips a trailing dot or space from a name, so two different names mean one file. */
export function endsWithDotOrSpace(segment: string): boolean {
  return segment.endsWith(".") || segment.endsWith(" ");
}
