import { z } from "zod";
import type { ToolDefinition, ToolEffect } from "./tool-definition.js";

/**
 * A tool as the second seed's policy sees it: its name, what it says of itself, its effect, the
 * JSON Schema the model writes against, and `prepare`, which parses an input with the tool's
 * strict schema (defaults applied, unknown keys refused) or throws. The seed's `authorize` takes
 * one of these and the prepared input.
 */
export interface RegisteredTool<Input = Readonly<Record<string, unknown>>> {
  readonly name: string;
  readonly description: string;
  readonly effect: ToolEffect;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly prepare: (input: unknown) => Input;
}

/** The seed's view of one of our tool definitions; the registry's own checks are not repeated. */
export function registeredTool(definition: ToolDefinition): RegisteredTool {
  const parameters: Record<string, unknown> = z.toJSONSchema(definition.schema, { io: "input" });
  delete parameters.$schema;
  return Object.freeze({
    name: definition.name,
    description: definition.description,
    effect: definition.effect,
    parameters: Object.freeze(parameters),
    prepare: (input: unknown) => definition.schema.parse(input),
  });
}
