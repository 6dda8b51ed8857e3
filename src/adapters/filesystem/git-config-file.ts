/**
 * Git's config syntax, read by the harness itself: deciding what git runs from the worktree must
 * not run git (a hostile repository's `core.fsmonitor` would run at that very call). Only the
 * shape is parsed (sections, keys, quoted values, escapes, continuations, comments); what a value
 * means is git-delegated-paths.ts's business. A line this parser cannot read is skipped, which
 * git would refuse: the worst case is a value not seen in a file git would not load anyway.
 */

export interface GitConfigEntry {
  /** Lower case, as git compares it (`core`, `includeif`). */
  readonly section: string;
  /** As written (case matters): `gitdir:~/work/` in `[includeIf "gitdir:~/work/"]`. */
  readonly subsection: string | undefined;
  /** Lower case (`hookspath`). */
  readonly key: string;
  /** A key with no `=` is a boolean true, as git reads it. */
  readonly value: string;
}

const SECTION = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/u;
const KEY = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(=?)(.*)$/u;

export function parseGitConfig(text: string): GitConfigEntry[] {
  const entries: GitConfigEntry[] = [];
  let section = "";
  let subsection: string | undefined;
  const lines = text.split(/\r?\n/u);
  for (let index = 0; index < lines.length; index += 1) {
    let line = lines[index] ?? "";
    const header = SECTION.exec(line);
    if (header !== null) {
      const name = (header[1] ?? "").toLowerCase();
      // `[branch.main]` is the old spelling of `[branch "main"]`.
      const dot = name.indexOf(".");
      section = dot === -1 || header[2] !== undefined ? name : name.slice(0, dot);
      subsection =
        header[2] !== undefined
          ? header[2].replace(/\\(.)/gu, "$1")
          : dot === -1
            ? undefined
            : name.slice(dot + 1);
      line = header[3] ?? "";
    }
    const key = KEY.exec(line);
    if (key === null || section === "") continue;
    if (key[2] === "") {
      entries.push({ section, subsection, key: (key[1] ?? "").toLowerCase(), value: "true" });
      continue;
    }
    let raw = key[3] ?? "";
    // A backslash at the end of a line continues the value on the next one.
    while (endsInContinuation(raw) && index + 1 < lines.length) {
      raw = raw.slice(0, -1) + (lines[index + 1] ?? "");
      index += 1;
    }
    entries.push({ section, subsection, key: (key[1] ?? "").toLowerCase(), value: unquote(raw) });
  }
  return entries;
}

function endsInContinuation(raw: string): boolean {
  const trailing = /\\+$/u.exec(raw);
  return trailing !== null && trailing[0].length % 2 === 1;
}

/** Git's value rules: quotes group, `#`/`;` outside quotes start a comment, escapes apply. */
function unquote(raw: string): string {
  let value = "";
  let quoted = false;
  let pendingSpace = "";
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw[index] ?? "";
    if (char === '"') {
      quoted = !quoted;
      continue;
    }
    if (!quoted && (char === "#" || char === ";")) break;
    if (char === "\\") {
      const next = raw[index + 1] ?? "";
      index += 1;
      value +=
        pendingSpace + (next === "n" ? "\n" : next === "t" ? "\t" : next === "b" ? "" : next);
      pendingSpace = "";
      continue;
    }
    if (!quoted && /\s/u.test(char)) {
      // Inner white space is kept, leading and trailing white space is not.
      if (value !== "") pendingSpace += char;
      continue;
    }
    value += pendingSpace + char;
    pendingSpace = "";
  }
  return value;
}
