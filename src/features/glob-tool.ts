/**
 * `glob`. Result text: one workspace-relative path per line, sorted; then
 * `[N more matches not shown]` when the cap left some out; `No files match PATTERN` for none.
 */
import { z } from "zod";
import type { WorkspaceFileSystem } from "../core/filesystem.js";
import { defineTool } from "../core/tool-definition.js";
import { toolSuccess } from "../core/tool-result.js";
import { withFileErrors } from "./file-tool-errors.js";

const schema = z.strictObject({
  pattern: z
    .string()
    .describe(
      "Workspace-relative glob: * and ? within a name, ** across directories, [abc], [a-z], " +
        "[!x]; e.g. src/**/*.ts",
    ),
});

export function createGlobTool({ fileSystem }: { fileSystem: WorkspaceFileSystem }) {
  return defineTool({
    name: "glob",
    description:
      "List files in the workspace whose paths match a glob pattern, sorted. Symlinked " +
      "directories are not followed and .git is never listed; at most 1000 paths are shown.",
    effect: "read",
    schema,
    handler: ({ pattern }) =>
      withFileErrors(async () => {
        const { paths, omitted } = await fileSystem.glob(pattern);
        if (paths.length === 0) return toolSuccess(`No files match ${pattern}`);
        const lines = omitted === 0 ? paths : [...paths, `[${omitted} more matches not shown]`];
        return toolSuccess(lines.join("\n"));
      }),
  });
}
