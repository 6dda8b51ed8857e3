/**
 * Our restricted glob language: `*`, `**`, `?`, `[abc]`, `[a-z]`, `[!x]`, nothing else. Patterns are
 * parsed into tokens and matched by a small linear-time matcher: no shell, no regular expression
 * built from model text, and no backtracking blow-up on names like `aaaa…`.
 *
 * `/` and `\` both separate segments (so there is no escape character: write `[*]` for a literal
 * star). Wildcards match dot-files too, and matching is case-sensitive on every OS.
 */
import { WorkspaceFileError } from "../../core/ports/filesystem.js";
import { LONE_SURROGATE } from "./workspace-path-syntax.js";

type Token =
  | { readonly kind: "literal"; readonly codePoint: number }
  | { readonly kind: "any" }
  | { readonly kind: "star" }
  | {
      readonly kind: "class";
      readonly negated: boolean;
      readonly ranges: readonly (readonly [number, number])[];
    };

type SegmentMatcher =
  | { readonly kind: "globstar" }
  | { readonly kind: "exact"; readonly name: string }
  // Only literals and `*`: the literal pieces between the stars, matched on the string directly.
  | { readonly kind: "stars"; readonly pieces: readonly string[] }
  | { readonly kind: "wildcard"; readonly tokens: readonly Token[] };

/** Where the matcher can be after some leading path segments: indexes into the segment list. */
export type GlobState = readonly number[];

const EMPTY_STATE: GlobState = [];
/** States wider than this (a pattern with very many `**`) are stepped without the cache. */
const MAX_CACHED_WIDTH = 30;
const SEPARATOR = /[\\/]/u;
const CONTROL = /\p{Cc}/u;
const ABSOLUTE = /^(?:[\\/]|[A-Za-z]:)/u;

export class GlobPattern {
  readonly #segments: readonly SegmentMatcher[];
  /** For each index, the states it stands for (`**` also matches zero segments). */
  readonly #closures: readonly GlobState[];
  readonly initial: GlobState;
  /** Every state built so far, by its members ("0,2"): one object per set. */
  readonly #interned = new Map<string, GlobState>();
  /** Per state, the next state for each mask of its members that matched a name. */
  readonly #transitions = new Map<GlobState, Map<number, GlobState>>();

  private constructor(segments: readonly SegmentMatcher[]) {
    this.#segments = segments;
    this.#closures = Array.from({ length: segments.length + 1 }, (_, start) => {
      const closure = [start];
      for (let index = start; segments[index]?.kind === "globstar"; index += 1) {
        closure.push(index + 1);
      }
      return closure;
    });
    for (const closure of this.#closures) this.#interned.set(closure.join(","), closure);
    this.initial = this.#closureOf(0);
  }

  /** Throws `invalid_path` for malformed or absolute patterns, `path_escape` for `..`. */
  static compile(pattern: string): GlobPattern {
    return new GlobPattern(parsePattern(pattern));
  }

  /**
   * The state after one more path segment named `name`. Runs once per directory entry, so it
   * only tests the segment matchers and looks the result up: the same state and the
   * same matchers matching give the same state object, built once.
   */
  step(state: GlobState, name: string): GlobState {
    if (state.length > MAX_CACHED_WIDTH) {
      // Too many members for a bit mask: work it out each time, uncached.
      return this.#next(
        state,
        (matcher) => matcher.kind === "globstar" || segmentMatches(matcher, name),
      );
    }
    let mask = 0;
    for (let position = 0; position < state.length; position += 1) {
      const matcher = this.#segments[state[position] ?? -1];
      if (matcher === undefined) continue;
      if (matcher.kind === "globstar" || segmentMatches(matcher, name)) mask |= 1 << position;
    }
    if (mask === 0) return EMPTY_STATE;
    let row = this.#transitions.get(state);
    if (row === undefined) {
      row = new Map();
      this.#transitions.set(state, row);
    }
    let next = row.get(mask);
    if (next === undefined) {
      const matched = mask;
      next = this.#next(state, (_, position) => (matched & (1 << position)) !== 0);
      row.set(mask, next);
    }
    return next;
  }

  /**
   * The union of what the matched members lead to (`**` stays, and may also match nothing), as
   * the one interned state object for that set.
   */
  #next(
    state: GlobState,
    matched: (matcher: SegmentMatcher, position: number) => boolean,
  ): GlobState {
    const members = new Set<number>();
    state.forEach((index, position) => {
      const matcher = this.#segments[index];
      if (matcher === undefined || !matched(matcher, position)) return;
      for (const member of this.#closureOf(matcher.kind === "globstar" ? index : index + 1)) {
        members.add(member);
      }
    });
    if (members.size === 0) return EMPTY_STATE;
    const sorted = [...members].sort((a, b) => a - b);
    const key = sorted.join(",");
    const known = this.#interned.get(key);
    if (known !== undefined) return known;
    this.#interned.set(key, sorted);
    return sorted;
  }

  /** Some segment of the pattern is exactly `name`, with no wildcard. */
  namesLiterally(name: string): boolean {
    return this.#segments.some((matcher) => matcher.kind === "exact" && matcher.name === name);
  }

  /** The segments consumed so far form a complete match. */
  accepts(state: GlobState): boolean {
    return state.includes(this.#segments.length);
  }

  /** Some longer path could still match: worth descending into this directory. */
  canMatchBelow(state: GlobState): boolean {
    return state.some((index) => index < this.#segments.length);
  }

  /** Whole-path test for a `/`-separated workspace-relative path. */
  matchesPath(relativePath: string): boolean {
    let state = this.initial;
    for (const name of relativePath.split("/")) {
      if (name === "") continue;
      state = this.step(state, name);
      if (state.length === 0) return false;
    }
    return this.accepts(state);
  }

  #closureOf(index: number): GlobState {
    return this.#closures[index] ?? [index];
  }
}

function parsePattern(pattern: string): SegmentMatcher[] {
  if (pattern === "") throw invalid("pattern must not be empty");
  if (CONTROL.test(pattern)) {
    throw invalid(`pattern must not contain control characters: ${JSON.stringify(pattern)}`);
  }
  if (LONE_SURROGATE.test(pattern)) {
    // No file name can hold one: the pattern could only ever match nothing.
    throw invalid(
      `pattern must be valid Unicode, without lone surrogates: ${JSON.stringify(pattern)}`,
    );
  }
  if (ABSOLUTE.test(pattern)) {
    throw invalid(`pattern must be relative to the workspace, not absolute: ${pattern}`);
  }
  const parts = pattern.split(SEPARATOR);
  if (parts.includes("..")) {
    throw new WorkspaceFileError(
      "path_escape",
      `pattern must not contain parent segments: ${pattern}`,
    );
  }
  const segments: SegmentMatcher[] = [];
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "**") {
      if (segments.at(-1)?.kind !== "globstar") segments.push({ kind: "globstar" });
      continue;
    }
    segments.push(segmentMatcher(part, parseSegment(part, pattern)));
  }
  return segments;
}

function segmentMatcher(part: string, tokens: readonly Token[]): SegmentMatcher {
  if (tokens.every((token) => token.kind === "literal")) return { kind: "exact", name: part };
  if (!tokens.every((token) => token.kind === "literal" || token.kind === "star")) {
    return { kind: "wildcard", tokens };
  }
  const pieces: string[] = [];
  let current = "";
  for (const token of tokens) {
    if (token.kind === "star") {
      pieces.push(current);
      current = "";
    } else {
      current += String.fromCodePoint(token.codePoint);
    }
  }
  pieces.push(current);
  return { kind: "stars", pieces };
}

function parseSegment(segment: string, pattern: string): Token[] {
  const chars = Array.from(segment);
  const tokens: Token[] = [];
  let index = 0;
  while (index < chars.length) {
    const char = chars[index] ?? "";
    if (char === "*") {
      // `a**b` inside a segment is just a star; only a whole `**` segment crosses directories.
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
      index += 1;
    } else if (char === "?") {
      tokens.push({ kind: "any" });
      index += 1;
    } else if (char === "[") {
      const parsed = parseClass(chars, index, pattern);
      tokens.push(parsed.token);
      index = parsed.next;
    } else {
      tokens.push({ kind: "literal", codePoint: codePointOf(char) });
      index += 1;
    }
  }
  return tokens;
}

function parseClass(
  chars: readonly string[],
  open: number,
  pattern: string,
): { token: Token; next: number } {
  let index = open + 1;
  const negated = chars[index] === "!";
  if (negated) index += 1;
  const ranges: [number, number][] = [];
  let first = true;
  for (;;) {
    const char = chars[index];
    if (char === undefined) {
      throw invalid(`pattern has a [ without a closing ] (write [[] for a literal [): ${pattern}`);
    }
    // A `]` right after `[` or `[!` is a member, as in POSIX globs.
    if (char === "]" && !first)
      return { token: { kind: "class", negated, ranges }, next: index + 1 };
    first = false;
    const end = chars[index + 2];
    if (chars[index + 1] === "-" && end !== undefined && end !== "]") {
      const low = codePointOf(char);
      const high = codePointOf(end);
      if (low > high) throw invalid(`pattern has a reversed range [${char}-${end}]: ${pattern}`);
      ranges.push([low, high]);
      index += 3;
    } else {
      ranges.push([codePointOf(char), codePointOf(char)]);
      index += 1;
    }
  }
}

function segmentMatches(matcher: SegmentMatcher, name: string): boolean {
  switch (matcher.kind) {
    case "globstar":
      return true;
    case "exact":
      return matcher.name === name;
    case "stars":
      return piecesMatch(matcher.pieces, name);
    case "wildcard":
      return tokensMatch(matcher.tokens, name);
  }
}

/**
 * `a*b*c` against a name: fixed first and last pieces, the middle ones leftmost in order. Linear,
 * and safe on UTF-16 because every piece is whole code points.
 */
function piecesMatch(pieces: readonly string[], name: string): boolean {
  const first = pieces[0] ?? "";
  const last = pieces.at(-1) ?? "";
  const end = name.length - last.length;
  if (end < first.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  let position = first.length;
  for (let index = 1; index < pieces.length - 1; index += 1) {
    const piece = pieces[index] ?? "";
    const found = name.indexOf(piece, position);
    if (found === -1 || found + piece.length > end) return false;
    position = found + piece.length;
  }
  return true;
}

/**
 * Greedy star matching with one backtrack point: O(name × pattern), never exponential. Walks the
 * name by code point in place (no array per name: this runs once per directory entry).
 */
function tokensMatch(tokens: readonly Token[], name: string): boolean {
  let tokenIndex = 0;
  let nameIndex = 0;
  let starToken = -1;
  let starName = 0;
  while (nameIndex < name.length) {
    const token = tokens[tokenIndex];
    const codePoint = name.codePointAt(nameIndex) ?? -1;
    if (token !== undefined && token.kind !== "star" && tokenMatches(token, codePoint)) {
      tokenIndex += 1;
      nameIndex += codePoint > 0xffff ? 2 : 1;
    } else if (token?.kind === "star") {
      starToken = tokenIndex;
      starName = nameIndex;
      tokenIndex += 1;
    } else if (starToken !== -1) {
      tokenIndex = starToken + 1;
      starName += (name.codePointAt(starName) ?? 0) > 0xffff ? 2 : 1;
      nameIndex = starName;
    } else {
      return false;
    }
  }
  while (tokens[tokenIndex]?.kind === "star") tokenIndex += 1;
  return tokenIndex === tokens.length;
}

function tokenMatches(token: Exclude<Token, { kind: "star" }>, codePoint: number): boolean {
  switch (token.kind) {
    case "literal":
      return token.codePoint === codePoint;
    case "any":
      return true;
    case "class": {
      const inside = token.ranges.some(([low, high]) => codePoint >= low && codePoint <= high);
      return inside !== token.negated;
    }
  }
}

function codePointOf(char: string): number {
  return char.codePointAt(0) ?? 0;
}

function invalid(message: string): WorkspaceFileError {
  return new WorkspaceFileError("invalid_path", message);
}
