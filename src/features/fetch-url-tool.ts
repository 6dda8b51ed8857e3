import { z } from "zod";
import { builtOnce } from "../core/common/built-once.js";
import { TOOL_ARGUMENT_SHAPES } from "./tool-argument-shapes.generated.js";
import { TOOL_PARAMETERS } from "./tool-parameters.generated.js";
import { defineTool, type ToolDefinition } from "../core/tools/tool-definition.js";
import { toolError } from "../core/tools/tool-result.js";

/** Built at its first use, when zod loads: the model is shown TOOL_PARAMETERS.fetch_url. */
const fetchUrlSchema = builtOnce(() =>
  z.strictObject({
    url: z.string().min(1).describe("The http(s) URL to fetch."),
  }),
);

/**
 * Declared in P04 so the model sees it, and always denied by the policy: a tool being visible is
 * not permission to use it. Its handler runs nothing either, in case it were ever reached.
 */
export function createFetchUrlTool(): ToolDefinition<ReturnType<typeof fetchUrlSchema>> {
  return defineTool({
    name: "fetch_url",
    description:
      "Fetch a URL over the network. In this profile the policy denies every external effect, so each call is refused.",
    effect: "external",
    parameters: TOOL_PARAMETERS.fetch_url,
    argumentShape: TOOL_ARGUMENT_SHAPES.fetch_url,
    get schema() {
      return fetchUrlSchema();
    },
    handler: () =>
      Promise.resolve(toolError("permission_denied", "fetch_url never runs in this harness")),
  });
}
