import { z } from "zod";
import type { PreparedToolCall } from "../../src/core/tools/prepared-tool-call.js";
import type { ToolDefinition, ToolEffect } from "../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../src/core/tools/tool-result.js";

/**
 * A permissive test tool: `path`, `command`, `content`, and a search's `pattern` and `glob` may be
 * any JSON value so the policy and the prompt see odd input.
 */
export function probeTool(name: string, effect: ToolEffect): ToolDefinition {
  return {
    name,
    description: `Test tool ${name}`,
    effect,
    schema: z.strictObject({
      path: z.unknown().optional(),
      command: z.unknown().optional(),
      content: z.unknown().optional(),
      pattern: z.unknown().optional(),
      glob: z.unknown().optional(),
    }),
    handler: () => Promise.resolve(toolSuccess(`${name} ran`)),
  };
}

/** A call prepared by a real registry, the only way the harness itself makes one. */
export function preparedCall(
  name: string,
  effect: ToolEffect,
  args: Record<string, unknown> = {},
  id = "call_1",
): PreparedToolCall {
  const snapshot = new ToolRegistry([probeTool(name, effect)]).snapshot();
  const outcome = snapshot.prepare({ id, name, arguments: JSON.stringify(args) });
  if (!outcome.ok) throw new Error(outcome.result.content);
  return outcome.call;
}
