import { z } from "zod";
import { vouchFor } from "../common/vouch.js";
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
  // A tool that lists its JSON Schema and its shape ahead needs no zod for a valid input.
  const parameters = parametersOf(definition);
  const shape = definition.argumentShape;
  const vouch = shape === undefined ? undefined : vouchFor(shape);
  const tools = new ToolRegistry([definition]).snapshot();
  let calls = 0;
  return Object.freeze({
    name: definition.name,
    description: definition.description,
    effect: definition.effect,
    parameters: Object.freeze(parameters),
    prepare: (input: unknown): PreparedToolCall => {
      // The seed's `definition.schema.parse(input)`: an input the schema refuses throws here.
      if (vouch?.(input) === undefined) definition.schema.parse(input);
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

/** The JSON Schema the model writes against: listed ahead, or worked out from the schema. */
function parametersOf(definition: ToolDefinition): Record<string, unknown> {
  if (definition.parameters !== undefined) return structuredClone(definition.parameters);
  const parameters: Record<string, unknown> = z.toJSONSchema(definition.schema, { io: "input" });
  delete parameters.$schema;
  return parameters;
}
