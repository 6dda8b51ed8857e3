/** `write_file`. Success text: `Wrote N UTF-8 bytes to PATH`, PATH as the model sent it. */
import { z } from "zod";
import { builtOnce } from "../core/common/built-once.js";
import { TOOL_ARGUMENT_SHAPES } from "./tool-argument-shapes.generated.js";
import { TOOL_PARAMETERS } from "./tool-parameters.generated.js";
import type { WorkspaceFileSystem } from "../core/ports/filesystem.js";
import { defineTool } from "../core/tools/tool-definition.js";
import { toolSuccess } from "../core/tools/tool-result.js";
import { withFileErrors } from "./file-tool-errors.js";

/** Built at its first use, when zod loads: the model is shown TOOL_PARAMETERS.write_file. */
const schema = builtOnce(() =>
  z.strictObject({
    path: z.string().describe("File path relative to the workspace root, e.g. src/index.ts"),
    content: z.string().describe("The complete new content of the file, as UTF-8 text"),
  }),
);

export function createWriteFileTool({ fileSystem }: { fileSystem: WorkspaceFileSystem }) {
  return defineTool({
    name: "write_file",
    description:
      "Create a file or replace its whole content. Missing parent directories are created. " +
      "To change part of an existing file, use edit_file instead.",
    effect: "write",
    beforeImages: true,
    parameters: TOOL_PARAMETERS.write_file,
    argumentShape: TOOL_ARGUMENT_SHAPES.write_file,
    get schema() {
      return schema();
    },
    handler: ({ path, content }, { recordWrite }) =>
      withFileErrors(async () => {
        const bytes = await fileSystem.writeFile(path, content, recordWrite);
        return toolSuccess(`Wrote ${bytes} UTF-8 bytes to ${path}`);
      }),
  });
}
