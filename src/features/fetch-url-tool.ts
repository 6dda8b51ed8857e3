import { z } from "zod";
import { defineTool, type ToolDefinition } from "../core/tools/tool-definition.js";
import { toolError } from "../core/tools/tool-result.js";

const fetchUrlSchema = z.strictObject({
  url: z.string().min(1).describe("The http(s) URL to fetch."),
});

/**
 * Declared in P04 so the model sees it, and always denied by the policy: a tool being visible is
 * not permission to use it. Its handler runs nothing either, in case it were ever reached.
 */
export function createFetchUrlTool(): ToolDefinition<typeof fetchUrlSchema> {
  return defineTool({
    name: "fetch_url",
    description:
      "Fetch a URL over the network. In this profile the policy denies every external effect, so each call is refused.",
    effect: "external",
    schema: fetchUrlSchema,
    handler: () =>
      Promise.resolve(toolError("permission_denied", "fetch_url never runs in this harness")),
  });
}
