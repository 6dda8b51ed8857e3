/**
 * A file name the way some filesystem the workspace may sit on takes it, folded a little further
 * than any one of them, for names the harness must not miss (`.git`, `AGENTS.md`): over-matching
 * costs a refusal or a question, missing one costs a file written without asking.
 *
 * - NTFS drops an alternate data stream (`AGENTS.md::$DATA` is `AGENTS.md`) and trailing dots
 *   and spaces (`AGENTS.md.`);
 * - HFS+ ignores some invisible code points (`.g\u200Cit` is `.git`);
 * - macOS compares names in one Unicode form, and case-blind filesystems fold more than ASCII
 *   case: `ſ` (long s) and `K` (Kelvin sign) fold to `s` and `k`, and NTFS's upper-case table
 *   takes the dotless `ı` to `I`. Upper-casing first, then lower-casing, gets each of those.
 */

// HFS+ ignores these code points when comparing names.
const HFS_IGNORABLE = /[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/gu;

export function nameKey(name: string): string {
  // `.git::$INDEX_ALLOCATION` and `.git:$I30:$INDEX_ALLOCATION` name the directory's stream.
  const beforeStream = name.split(":", 1)[0] ?? "";
  const visible = beforeStream.replace(HFS_IGNORABLE, "");
  // Windows drops trailing dots and spaces, so `.git.` and `.git ` are `.git`.
  const stripped = visible === "." || visible === ".." ? visible : visible.replace(/[. ]+$/u, "");
  return stripped.normalize("NFC").toUpperCase().toLowerCase();
}
