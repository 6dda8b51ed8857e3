/**
 * `edit_file`. Success text: `Replaced 1 occurrence in PATH` or `Replaced N occurrences in PATH`.
 */
import { z } from "zod";
import { builtOnce } from "../core/common/built-once.js";
import { TOOL_ARGUMENT_SHAPES } from "./tool-argument-shapes.generated.js";
import { TOOL_PARAMETERS } from "./tool-parameters.generated.js";
import type { WorkspaceFileSystem } from "../core/ports/filesystem.js";
import { defineTool } from "../core/tools/tool-definition.js";
import { toolError, toolSuccess } from "../core/tools/tool-result.js";
import { withFileErrors } from "./file-tool-errors.js";

/** Built at its first use, when zod loads: the model is shown TOOL_PARAMETERS.edit_file. */
const schema = builtOnce(() =>
  z.strictObject({
    path: z.string().describe("File path relative to the workspace root, e.g. src/index.ts"),
    old_string: z
      .string()
      .min(1)
      .describe("The exact text to replace, including whitespace; it must occur in the file"),
    new_string: z.string().describe("The text to put in its place"),
    replace_all: z
      .boolean()
      .optional()
      .describe("Replace every occurrence instead of requiring exactly one (default false)"),
  }),
);

export function createEditFileTool({ fileSystem }: { fileSystem: WorkspaceFileSystem }) {
  return defineTool({
    name: "edit_file",
    description:
      "Replace exact text in a UTF-8 file. old_string must match exactly once unless " +
      "replace_all is true. The file's line endings and byte order mark are kept.",
    effect: "write",
    beforeImages: true,
    parameters: TOOL_PARAMETERS.edit_file,
    argumentShape: TOOL_ARGUMENT_SHAPES.edit_file,
    get schema() {
      return schema();
    },
    // An old_string that occurs four times fails edit_ambiguous before the person is asked.
    precheck: async ({ path, old_string, new_string, replace_all }) => {
      const problem = await fileSystem.editProblem?.(path, {
        oldString: old_string,
        newString: new_string,
        replaceAll: replace_all ?? false,
      });
      return problem === undefined ? undefined : toolError(problem.code, problem.message);
    },
    handler: ({ path, old_string, new_string, replace_all }, { recordWrite }) =>
      withFileErrors(async () => {
        const replaced = await fileSystem.editFile(
          path,
          { oldString: old_string, newString: new_string, replaceAll: replace_all ?? false },
          recordWrite,
        );
        const noun = replaced === 1 ? "occurrence" : "occurrences";
        return toolSuccess(`Replaced ${replaced} ${noun} in ${path}`);
      }),
  });
}
