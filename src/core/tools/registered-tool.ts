import { z } from "zod";
import type { PreparedToolCall } from "./prepared-tool-call.js";
import type { ToolDefinition, ToolEffect } from "./tool-definition.js";
import { ToolRegistry } from "./tool-registry.js";

export { PreparedToolCall } from "./prepared-tool-call.js";

/**
 * A tool as the second seed's policy sees it: its name, what it says of itself, its effect, the
 * JSON Schema the model writes against, and `prepare`, which parses an input with the tool's
 * strict schema (defaults applied, unknown keys refused) or throws, and returns a
 * `PreparedToolCall` whose `input` the policy decides on and whose `execute(context)` runs it.
 */
export interface RegisteredTool {
  readonly name: string;
  readonly description: string;
  readonly effect: ToolEffect;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly prepare: (input: unknown) => PreparedToolCall;
}

/**
 * The seed's view of one of our tool definitions. `prepare` goes through a registry of this one
 * tool, so its `execute` takes the same checked path as every call of a run.
 */
export function registeredTool(definition: ToolDefinition): RegisteredTool {
  const parameters: Record<string, unknown> = z.toJSONSchema(definition.schema, { io: "input" });
  delete parameters.$schema;
  const tools = new ToolRegistry([definition]).snapshot();
  let calls = 0;
  return Object.freeze({
    name: definition.name,
    description: definition.description,
    effect: definition.effect,
    parameters: Object.freeze(parameters),
    prepare: (input: unknown): PreparedToolCall => {
      // The seed's `definition.schema.parse(input)`: an input the schema refuses throws here.
      definition.schema.parse(input);
      calls += 1;
      const outcome = tools.prepare({
        id: `${definition.name}_${calls}`,
        name: definition.name,
        arguments: JSON.stringify(input),
      });
      if (!outcome.ok) throw new TypeError(outcome.result.content);
      return outcome.call;
    },
  });
}
