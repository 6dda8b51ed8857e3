/**
 * `glob`. Result text: one workspace-relative path per line, sorted; then
 * `[N more matches not shown]` when the cap left some out; `[N node_modules directories not
 * searched: …]` when the pattern did not name them; `No files match PATTERN` (then the notes) for
 * none.
 * A path that could pass for another line (a control character such as a newline, a leading `"`,
 * or the text of the tool's own notes) is shown JSON-quoted: `"a\n[999 more matches not shown]"`.
 */
import { z } from "zod";
import { builtOnce } from "../core/common/built-once.js";
import { TOOL_ARGUMENT_SHAPES } from "./tool-argument-shapes.generated.js";
import { TOOL_PARAMETERS } from "./tool-parameters.generated.js";
import type { WorkspaceFileSystem } from "../core/ports/filesystem.js";
import { defineTool } from "../core/tools/tool-definition.js";
import { toolSuccess } from "../core/tools/tool-result.js";
import { withFileErrors } from "./file-tool-errors.js";

/** Built at its first use, when zod loads: the model is shown TOOL_PARAMETERS.glob. */
const schema = builtOnce(() =>
  z.strictObject({
    pattern: z
      .string()
      .describe(
        "Workspace-relative glob: * and ? within a name, ** across directories, [abc], [a-z], " +
          "[!x]; e.g. src/**/*.ts",
      ),
  }),
);

export const GLOB_TOOL_NAME = "glob";

export function createGlobTool({
  fileSystem,
  withheld,
}: {
  fileSystem: WorkspaceFileSystem;
  /** Globs of paths never listed (the person's deny and ask path rules); absent: none. */
  withheld?: readonly string[] | undefined;
}) {
  return defineTool({
    name: GLOB_TOOL_NAME,
    description:
      "List files in the workspace whose paths match a glob pattern, sorted. Symlinked " +
      "directories are not followed and .git is never listed; at most 1000 paths are shown.",
    effect: "read",
    parameters: TOOL_PARAMETERS.glob,
    argumentShape: TOOL_ARGUMENT_SHAPES.glob,
    get schema() {
      return schema();
    },
    handler: ({ pattern }) =>
      withFileErrors(async () => {
        const {
          paths,
          omitted,
          unsearchedDependencyDirectories = 0,
        } = await fileSystem.glob(pattern, withheld);
        const notes = [
          // Said whatever matched, so that it tells nothing about the paths left out.
          ...(withheld === undefined ? [] : [WITHHELD_NOTE]),
          ...(omitted === 0 ? [] : [`[${omitted} more matches not shown]`]),
          ...(unsearchedDependencyDirectories === 0
            ? []
            : [unsearchedNote(unsearchedDependencyDirectories)]),
        ];
        // No match still says so first: a note about what was not searched is not a match.
        const lines = paths.length === 0 ? [`No files match ${pattern}`] : paths.map(displayPath);
        return toolSuccess([...lines, ...notes].join("\n"));
      }),
  });
}

/**
 * Under every search while the person's rules keep paths out of it, whatever was found: a note
 * that came only when something was left out would tell the model what the files hold.
 */
export const WITHHELD_NOTE = "[files your settings deny or ask about are not searched]";

function unsearchedNote(count: number): string {
  const directories = count === 1 ? "directory" : "directories";
  return `[${count} node_modules ${directories} not searched: put node_modules in the pattern to list them]`;
}

// C0, DEL and C1 controls (NUL, newline, NEL, ESC, …) and the Unicode line and paragraph separators.
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/u;
// What JSON.stringify leaves as it is of the above.
const UNESCAPED_BY_JSON = /[\u007f-\u009f\u2028\u2029]/gu;
const LOOKS_LIKE_A_NOTE =
  /^(?:\[\d+ more matches not shown\]$|\[\d+ node_modules director(?:y|ies) not searched|\[files your settings deny |No files match )/u;

/** A file name is the workspace's text, not ours: it must not forge further result lines. */
function displayPath(path: string): string {
  if (!LINE_BREAKING.test(path) && !path.startsWith('"') && !LOOKS_LIKE_A_NOTE.test(path)) {
    return path;
  }
  return JSON.stringify(path).replace(
    UNESCAPED_BY_JSON,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
