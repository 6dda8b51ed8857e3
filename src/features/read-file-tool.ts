/**
 * `read_file`. Result text, chosen so the model can tell a whole file from a part of one:
 * - the whole file: its text exactly (a UTF-8 BOM dropped), or `[empty file]`;
 * - a part (offset/limit left lines out): the text, then a line `[lines A-B of N]`;
 * - an offset past the end: `[no lines from line A: the file has N lines]`;
 * - bytes that are not valid UTF-8 (shown as U+FFFD): a last line that says so, and that writing
 *   the text back replaces them (write_file refuses to replace such a file until it was read).
 */
import { z } from "zod";
import { builtOnce } from "../core/common/built-once.js";
import { TOOL_ARGUMENT_SHAPES } from "./tool-argument-shapes.generated.js";
import { TOOL_PARAMETERS } from "./tool-parameters.generated.js";
import type { ReadFileResult, WorkspaceFileSystem } from "../core/ports/filesystem.js";
import { defineTool } from "../core/tools/tool-definition.js";
import { toolSuccess } from "../core/tools/tool-result.js";
import { withFileErrors } from "./file-tool-errors.js";

/** Built at its first use, when zod loads: the model is shown TOOL_PARAMETERS.read_file. */
const schema = builtOnce(() =>
  z.strictObject({
    path: z.string().describe("File path relative to the workspace root, e.g. src/index.ts"),
    offset: z.int().min(1).optional().describe("First line to return, counting from 1"),
    limit: z.int().min(1).optional().describe("Maximum number of lines to return"),
  }),
);

export function createReadFileTool({ fileSystem }: { fileSystem: WorkspaceFileSystem }) {
  return defineTool({
    name: "read_file",
    description:
      "Read a UTF-8 text file in the workspace. Files over 256 KB must be read in parts: give " +
      "offset (first line, from 1) and limit (number of lines).",
    effect: "read",
    parameters: TOOL_PARAMETERS.read_file,
    argumentShape: TOOL_ARGUMENT_SHAPES.read_file,
    get schema() {
      return schema();
    },
    handler: ({ path, offset, limit }) =>
      withFileErrors(async () => {
        const options = {
          ...(offset === undefined ? {} : { offset }),
          ...(limit === undefined ? {} : { limit }),
        };
        const result = await fileSystem.readFile(path, options);
        const text = formatRead(result);
        return toolSuccess(result.invalidUtf8 === true ? withInvalidUtf8Note(text, path) : text);
      }),
  });
}

function formatRead(result: ReadFileResult): string {
  if (result.totalLines === 0) return "[empty file]";
  if (result.firstLine > result.totalLines) {
    return `[no lines from line ${result.firstLine}: the file has ${result.totalLines} lines]`;
  }
  if (result.firstLine === 1 && result.lastLine === result.totalLines) return result.text;
  const separator = result.text.endsWith("\n") ? "" : "\n";
  return `${result.text}${separator}[lines ${result.firstLine}-${result.lastLine} of ${result.totalLines}]`;
}

function withInvalidUtf8Note(text: string, path: string): string {
  const separator = text.endsWith("\n") ? "" : "\n";
  return (
    `${text}${separator}[${path} is not valid UTF-8: the bytes that are not are shown as U+FFFD ` +
    `(\u{FFFD}); writing this text back would replace them]`
  );
}
