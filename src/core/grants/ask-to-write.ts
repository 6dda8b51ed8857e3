/**
 * Chapter 4's one question about a write: a file that a later session, an editor, CI, the shell
 * or a package manager loads or runs (write-loaded-later.ts) is asked about, with the exact
 * content bound into the request's digest, instead of being written as an ordinary workspace file.
 */
import { createHash } from "node:crypto";
import { actionDigest } from "../policy/approval-request.js";
import type { LoadedLater } from "../policy/write-loaded-later.js";
import type { P04Context } from "./policy-context.js";
import type { ExplainedDecision } from "./policy-decision.js";

/** Said with every such request. */
export const LOADED_LATER_RISKS = Object.freeze([
  "its effect outlives this run: what the file says is loaded or run later, outside the sandbox, without asking again",
]);

/** Where a write's digest says it runs: the file tools write directly, no command runs. */
const WRITTEN_BY_FILE_TOOL = "file tool: no command runs";
/**
 * Content whose JSON text is up to this many characters is shown in the request's summary; longer,
 * there by size and hash, and whole, line by line, in the request's marked block (`scriptRows`):
 * the terminal shows that whole when it fits, else the request waits and `agent approvals` shows
 * it whole. The person approves only what they can read.
 */
const SHOWN_CONTENT_CHARS = 500;

export function askToWrite(
  toolName: string,
  path: string,
  input: Readonly<Record<string, unknown>>,
  later: LoadedLater,
  context: P04Context,
): ExplainedDecision {
  const digest = actionDigest({
    profile: "P04",
    tool: toolName,
    input,
    cwd: context.cwd,
    network: context.network,
    sandbox: WRITTEN_BY_FILE_TOOL,
    script: null,
  });
  const parts = [
    `${toolName} ${JSON.stringify(path)} in ${context.cwd}`,
    "effect write",
    ...(later.landsOn === undefined ? [] : [`lands on ${JSON.stringify(later.landsOn)}`]),
    ...(later.loadedThrough === undefined
      ? []
      : [`read through the link ${JSON.stringify(later.loadedThrough)}`]),
    `loaded later: ${later.reason}`,
    ...contentWords(input),
  ];
  const rows = contentRows(input);
  return {
    type: "ask",
    why: `A person approves each exact write here: ${later.reason}`,
    request: {
      id: context.newRequestId(),
      actionDigest: digest,
      summary: parts.join(" · "),
      ...(rows.length === 0 ? {} : { scriptRows: rows }),
      risks: LOADED_LATER_RISKS,
      expiresAt: new Date(context.now + context.requestTtlMs).toISOString(),
    },
  };
}

const CONTENT_KEYS = Object.freeze(["content", "old_string", "new_string"]);

/** The content (or the edit) in the summary: whole when short, else its size and hash. */
function contentWords(input: Readonly<Record<string, unknown>>): string[] {
  const words: string[] = [];
  for (const key of CONTENT_KEYS) {
    const value = input[key];
    if (typeof value !== "string") continue;
    words.push(
      isShort(value)
        ? `${key} ${JSON.stringify(value)}`
        : `${key} ${String(new TextEncoder().encode(value).length)} bytes, sha256 ${createHash("sha256").update(value, "utf8").digest("hex")}`,
    );
  }
  if (input.replace_all === true) words.push("replace_all");
  return words;
}

/**
 * Content too long for the summary, whole: one row per line, each led by its key, so no line of
 * one value can pass for a line of another (the block escapes every row as it shows it).
 */
function contentRows(input: Readonly<Record<string, unknown>>): string[] {
  const rows: string[] = [];
  for (const key of CONTENT_KEYS) {
    const value = input[key];
    if (typeof value !== "string" || isShort(value)) continue;
    for (const line of value.split("\n")) rows.push(`${key}: ${line}`);
  }
  return rows;
}

function isShort(value: string): boolean {
  return JSON.stringify(value).length <= SHOWN_CONTENT_CHARS;
}
