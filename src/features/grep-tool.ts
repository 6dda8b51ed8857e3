/**
 * `grep`. Result text, as `grep -rn` prints it: `path:line:text` for a matching line,
 * `path-line-text` for a context line, `--` between groups that do not touch; then
 * `[more matches not shown: the cap of N was reached]` when it was; then what was not searched
 * (`[N binary files not searched]`, `[N files over 4 MiB not searched]`). None:
 * `No matches for PATTERN` (then the notes). A `path` an ignore file leaves out (`.env` in
 * `.gitignore`) is not searched, and the result says so instead: `[.env was not searched: …]`.
 * A path that could pass for another line or another field (a control character, a leading `"`,
 * a `:`) is shown JSON-quoted; a line over 500 characters is cut, saying how much was left out.
 */
import { z } from "zod";
import { builtOnce } from "../core/common/built-once.js";
import { TOOL_ARGUMENT_SHAPES } from "./tool-argument-shapes.generated.js";
import { TOOL_PARAMETERS } from "./tool-parameters.generated.js";
import {
  GrepStoppedError,
  type GrepLine,
  type GrepResult,
  type WorkspaceFileSystem,
} from "../core/ports/filesystem.js";
import { defineTool } from "../core/tools/tool-definition.js";
import { toolError, toolSuccess, type ToolResult } from "../core/tools/tool-result.js";
import { withFileErrors } from "./file-tool-errors.js";
import { WITHHELD_NOTE } from "./glob-tool.js";

export const GREP_TOOL_NAME = "grep";
export const GREP_DEFAULT_RESULTS = 200;
export const GREP_MAX_RESULTS = 2000;
export const GREP_MAX_CONTEXT = 20;
const SHOWN_LINE_CHARS = 500;

/** Built at its first use, when zod loads: the model is shown TOOL_PARAMETERS.grep. */
const schema = builtOnce(() =>
  z.strictObject({
    pattern: z
      .string()
      .min(1)
      .describe("JavaScript regular expression (or the text itself with fixed_strings)"),
    fixed_strings: z.boolean().optional().describe("Search for the pattern as plain text"),
    ignore_case: z.boolean().optional().describe("Match without regard to case"),
    glob: z
      .string()
      .optional()
      .describe("Only files whose workspace-relative paths match this glob, e.g. src/**/*.ts"),
    path: z
      .string()
      .optional()
      .describe("Workspace-relative folder (or file) to search under, e.g. src; default: all"),
    context: z
      .int()
      .min(0)
      .max(GREP_MAX_CONTEXT)
      .optional()
      .describe("Lines to show before and after each match"),
    max_results: z
      .int()
      .min(1)
      .max(GREP_MAX_RESULTS)
      .optional()
      .describe(`Matching lines to return at most (default ${GREP_DEFAULT_RESULTS})`),
  }),
);

export function createGrepTool({
  fileSystem,
  withheld,
}: {
  fileSystem: WorkspaceFileSystem;
  /** Globs of files never searched (the person's deny and ask path rules); absent: none. */
  withheld?: readonly string[] | undefined;
}) {
  return defineTool({
    name: GREP_TOOL_NAME,
    description:
      "Search the workspace's text files for a regular expression or fixed text; prints " +
      "path:line:text like grep -rn. node_modules is searched only when the glob or path names " +
      "it. Files .gitignore or .git/info/exclude ignore are never searched, even when path " +
      "names them (the result then says so); nor are .git, binary files and links.",
    effect: "read",
    parameters: TOOL_PARAMETERS.grep,
    argumentShape: TOOL_ARGUMENT_SHAPES.grep,
    get schema() {
      return schema();
    },
    handler: (input, context) =>
      withFileErrors(async () => {
        if (fileSystem.grep === undefined) {
          return toolError("tool_execution_error", "grep is not available in this workspace");
        }
        const fixedStrings = input.fixed_strings ?? false;
        if (!fixedStrings) {
          const problem = regexProblem(input.pattern);
          if (problem !== undefined) {
            return toolError(
              "invalid_arguments",
              `pattern is not a valid regular expression (${problem}); fix it, or set ` +
                `fixed_strings to true to search for the text as it is`,
            );
          }
        }
        const maxResults = input.max_results ?? GREP_DEFAULT_RESULTS;
        let result: GrepResult;
        try {
          result = await fileSystem.grep(
            {
              pattern: input.pattern,
              fixedStrings,
              ignoreCase: input.ignore_case ?? false,
              ...(input.glob === undefined ? {} : { glob: input.glob }),
              ...(input.path === undefined ? {} : { path: input.path }),
              ...(withheld === undefined ? {} : { withheld }),
              context: input.context ?? 0,
              maxResults,
            },
            context.signal === undefined ? {} : { signal: context.signal },
          );
        } catch (error) {
          if (error instanceof GrepStoppedError) return stopped(error);
          throw error;
        }
        const text =
          result.ignoredPath === undefined || input.path === undefined
            ? formatGrep(input.pattern, result, maxResults, input.context ?? 0)
            : ignoredNote(input.path, result.ignoredPath);
        // Said whatever was found, so that it tells nothing about the files left out.
        return toolSuccess(withheld === undefined ? text : `${text}\n${WITHHELD_NOTE}`);
      }),
  });
}

/** Said instead of `No matches`: nothing under the named path was searched. */
function ignoredNote(named: string, ignored: string): string {
  return (
    `[${displayPath(named)} was not searched: .gitignore or .git/info/exclude ignores ` +
    `${displayPath(ignored)}, and grep leaves out ignored files even when path names them]`
  );
}

function stopped(error: GrepStoppedError): ToolResult {
  switch (error.reason) {
    case "deadline":
      return toolError(
        "grep_timeout",
        `grep did not finish within ${String(error.deadlineMs / 1000)} s and was stopped; ` +
          "nothing it found is shown. A pattern with nested repetition such as (a+)+ can take " +
          "that long on one line: simplify the pattern, narrow the search with glob, or set " +
          "fixed_strings to true",
      );
    case "cancelled":
      return toolError("grep_cancelled", "grep was cancelled before it finished");
  }
}

function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : "invalid";
  }
}

export function formatGrep(
  pattern: string,
  result: GrepResult,
  maxResults: number,
  context: number,
): string {
  const out: string[] = [];
  let previous: GrepLine | undefined;
  for (const line of result.lines) {
    const touches = previous?.path === line.path && previous.line + 1 === line.line;
    if (context > 0 && previous !== undefined && !touches) out.push("--");
    const separator = line.match ? ":" : "-";
    out.push(`${displayPath(line.path)}${separator}${line.line}${separator}${cut(line.text)}`);
    previous = line;
  }
  if (out.length === 0) out.push(`No matches for ${pattern}`);
  if (result.truncated) out.push(`[more matches not shown: the cap of ${maxResults} was reached]`);
  if (result.skippedBinary > 0) out.push(`[${result.skippedBinary} binary files not searched]`);
  if (result.skippedLarge > 0) {
    out.push(`[${result.skippedLarge} files over 4 MiB not searched]`);
  }
  return out.join("\n");
}

function cut(text: string): string {
  if (text.length <= SHOWN_LINE_CHARS) return text;
  return `${text.slice(0, SHOWN_LINE_CHARS)}…[${text.length - SHOWN_LINE_CHARS} more characters]`;
}

const NEEDS_QUOTES = /[\p{Cc}\u2028\u2029:]|^"/u;

/** A file name is the workspace's text: it must not forge another line or another line number. */
function displayPath(path: string): string {
  return NEEDS_QUOTES.test(path) ? JSON.stringify(path) : path;
}
