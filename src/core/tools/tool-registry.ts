import { z } from "zod";
import { deepFreeze } from "../common/deep-freeze.js";
import { vouchFor, type Vouch } from "../common/vouch.js";
import type { ToolCall } from "../ports/messages.js";
import type { ModelToolSpec } from "../ports/model.js";
import { argumentsTooLarge, MAX_ARGUMENTS_BYTES, utf8Bytes } from "./argument-limits.js";
import { PreparedToolCall } from "./prepared-tool-call.js";
import type { FinalArguments, ToolContext, ToolDefinition, ToolSchema } from "./tool-definition.js";
import { changesNothing, TOOL_EFFECTS } from "./tool-definition.js";
import { isToolResult, toolError, type ToolResult } from "./tool-result.js";

const TOOL_NAME = /^[A-Za-z0-9_]{1,64}$/;

export type PrepareOutcome =
  | { readonly ok: true; readonly call: PreparedToolCall }
  | { readonly ok: false; readonly result: ToolResult };

export class ToolRegistrationError extends Error {
  override readonly name = "ToolRegistrationError";
}

/**
 * Tools by name. A `Map`, not an object, so a model asking for `toString` or `__proto__` gets
 * `unknown_tool` rather than a prototype method.
 */
export class ToolRegistry {
  readonly #tools: Map<string, RegisteredTool>;

  constructor(tools: Iterable<ToolDefinition> = []) {
    this.#tools = new Map();
    for (const tool of tools) this.register(tool);
  }

  register(tool: ToolDefinition): void {
    assertValidDefinition(tool);
    // Copied by descriptor, not spread: a lazy `schema` getter stays lazy (tool-definition.ts).
    const definition = Object.freeze(
      Object.defineProperties({}, Object.getOwnPropertyDescriptors(tool)) as ToolDefinition,
    );
    const spec = modelSpecFor(definition);
    if (this.#tools.has(tool.name)) {
      throw new ToolRegistrationError(`Tool already registered: ${tool.name}`);
    }
    const shape = definition.argumentShape;
    const vouch = shape === undefined ? undefined : vouchFor(shape);
    this.#tools.set(tool.name, Object.freeze({ definition, spec, vouch }));
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name)?.definition;
  }

  /**
   * Builds every tool's argument schema now (a lazy one loads zod, ~30 ms) and has zod ready its
   * checker with one parse of `{}` (a schema's first parse walks it for recursion and compiles a
   * checking function): for a moment the agent would otherwise spend waiting, so that its first
   * call does not pay for it. The parse has no effect but zod's own caches: every tool's schema is
   * a strict object (checked at registration), and a failure is the first call's to report.
   * A tool with an argument shape is left alone: its valid calls never need zod, and zod loads
   * for the first call that is not (a refusal, whose time matters less than a run that never
   * loads zod at all).
   */
  prepareSchemas(): void {
    for (const { definition, vouch } of this.#tools.values()) {
      if (vouch !== undefined) continue;
      try {
        schemaOf(definition).safeParse({});
      } catch {
        // a refinement that throws: the first call reports it as invalid_arguments
      }
    }
  }

  /** An immutable view for one turn: tools registered later do not appear mid-turn. */
  snapshot(): ToolRegistrySnapshot {
    return new ToolRegistrySnapshot(new Map(this.#tools));
  }
}

/** A tool as registered, with the spec the model is shown: worked out once, not on every turn. */
interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly spec: ModelToolSpec;
  /** From `definition.argumentShape`: the arguments zod would accept, as it returns them. */
  readonly vouch: Vouch | undefined;
}

export class ToolRegistrySnapshot {
  readonly #tools: ReadonlyMap<string, RegisteredTool>;

  /** @internal Use `ToolRegistry.snapshot`. */
  constructor(tools: ReadonlyMap<string, RegisteredTool>) {
    this.#tools = tools;
    Object.freeze(this);
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  effectOf(name: string): ToolDefinition["effect"] | undefined {
    return this.#tools.get(name)?.definition.effect;
  }

  /** A local read: running it changes nothing outside the harness (an MCP tool's read is remote). */
  changesNothing(name: string): boolean {
    const tool = this.#tools.get(name)?.definition;
    return tool !== undefined && changesNothing(tool);
  }

  /** What the model is shown of each tool, in registration order (see `modelSpecFor`). */
  openAITools(): ModelToolSpec[] {
    return [...this.#tools.values()].map((tool) => tool.spec);
  }

  prepare(call: ToolCall): PrepareOutcome {
    const registered = this.#tools.get(call.name);
    if (registered === undefined) {
      return { ok: false, result: unknownTool(call.name, this.names()) };
    }
    // Measured before parsing: a hostile size costs neither a parse nor a journal record.
    const bytes = utf8Bytes(call.arguments);
    if (bytes > MAX_ARGUMENTS_BYTES) {
      return { ok: false, result: argumentsTooLarge(call.name, bytes) };
    }
    const parsed = parseArguments(registered, call.arguments);
    if (!parsed.ok) return parsed;
    const tool = registered.definition;
    return {
      ok: true,
      call: new PreparedToolCall(
        call,
        tool.effect,
        parsed.value,
        finalArgumentsOf(tool, parsed.value),
        (prepared, context) => this.invoke(prepared, context),
        tool.remote === true,
        tool.beforeImages === true,
      ),
    };
  }

  /**
   * The tool's precheck (see `ToolDefinition.precheck`): the error result of a call that cannot
   * succeed, or `undefined` to go on to the policy. A precheck that fails says nothing.
   */
  async precheck(call: PreparedToolCall): Promise<ToolResult | undefined> {
    const registered = this.#tools.get(call.toolName);
    const tool = registered?.definition;
    if (registered === undefined || tool?.precheck === undefined) return undefined;
    const parsed = parseArguments(registered, call.rawArguments);
    if (!parsed.ok) return undefined;
    try {
      const found = await tool.precheck(parsed.value);
      return found === undefined ? undefined : copiedResult(found);
    } catch {
      return undefined;
    }
  }

  /**
   * Runs the handler. Arguments are parsed again from the raw JSON so a caller that skipped
   * `prepare` (or a prepared call from another registry) still cannot reach a handler unvalidated.
   */
  async invoke(
    call: PreparedToolCall,
    context: Omit<ToolContext, "callId"> = {},
  ): Promise<ToolResult> {
    const registered = this.#tools.get(call.toolName);
    if (registered === undefined) {
      return unknownTool(call.toolName, this.names());
    }
    const tool = registered.definition;
    const parsed = parseArguments(registered, call.rawArguments);
    if (!parsed.ok) return parsed.result;
    let result: unknown;
    try {
      result = await tool.handler(parsed.value, { ...context, callId: call.callId });
    } catch (error) {
      return toolError("tool_execution_error", `Tool ${tool.name} failed: ${describeError(error)}`);
    }
    const copy = copiedResult(result);
    if (copy === undefined) {
      return toolError(
        "invalid_tool_result",
        `Tool handler returned an invalid result (tool ${tool.name})`,
      );
    }
    return copy;
  }
}

/** A hook that throws records nothing extra: the model's arguments' hash is still audited. */
function finalArgumentsOf(
  tool: ToolDefinition,
  args: Record<string, unknown>,
): FinalArguments | undefined {
  try {
    return tool.finalArguments?.(args);
  } catch {
    return undefined;
  }
}

/** `Unknown tool: x (available tools: a, b)`: the model can pick an existing one next. */
function unknownTool(name: string, available: readonly string[]): ToolResult {
  const list = available.length === 0 ? "none" : available.join(", ");
  return toolError("unknown_tool", `Unknown tool: ${name} (available tools: ${list})`);
}

/**
 * Reads the handler's return once into a fresh frozen object with only the contract's fields, so
 * a getter cannot change its answer after the check and extra data never reaches the model.
 */
function copiedResult(value: unknown): ToolResult | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    const { content, isError, errorCode } = value as Record<string, unknown>;
    const copy = errorCode === undefined ? { content, isError } : { content, isError, errorCode };
    return isToolResult(copy) ? Object.freeze(copy) : undefined;
  } catch {
    return undefined;
  }
}

type ParseOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly result: ToolResult };

/**
 * The call's arguments as the tool's schema returns them, or the error result the model is sent.
 * Vouched-for arguments never read `tool.schema` (whose getter may load zod); anything else gets
 * zod's verdict, so every refusal and its message is zod's.
 */
function parseArguments({ definition: tool, vouch }: RegisteredTool, raw: string): ParseOutcome {
  let json: unknown;
  try {
    json = JSON.parse(raw === "" ? "{}" : raw);
  } catch {
    return {
      ok: false,
      result: toolError("invalid_json", `Arguments for ${tool.name} are not valid JSON`),
    };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return {
      ok: false,
      result: toolError("invalid_json", `Arguments for ${tool.name} must be a JSON object`),
    };
  }
  const vouched = vouch?.(json);
  if (vouched !== undefined) return { ok: true, value: vouched as Record<string, unknown> };
  let checked: ReturnType<ToolSchema["safeParse"]>;
  try {
    checked = tool.schema.safeParse(json);
  } catch {
    // A refinement that throws (or is async) is a tool bug; the loop must still get a result.
    return {
      ok: false,
      result: toolError("invalid_arguments", `Arguments for ${tool.name} could not be validated`),
    };
  }
  if (!checked.success) {
    return {
      ok: false,
      result: toolError(
        "invalid_arguments",
        `Invalid arguments for ${tool.name}: ${describeIssues(checked.error.issues)}`,
      ),
    };
  }
  return { ok: true, value: checked.data };
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      if (issue.code === "unrecognized_keys") {
        // A nested stray key is named by its full path, so the model knows which object to fix.
        return issue.keys
          .map((key) => `${fieldPath([...issue.path, key])}: unexpected field`)
          .join("; ");
      }
      return `${fieldPath(issue.path)}: ${issue.message}`;
    })
    .join("; ");
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "(root)" : path.map(String).join(".");
}

function describeError(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "the error could not be described";
  }
}

/**
 * Name, description and JSON Schema only: the model never sees handlers or effects. Deep-frozen,
 * because every turn hands the same object to the model client.
 */
function modelSpecFor(tool: ToolDefinition): ModelToolSpec {
  if (tool.parameters !== undefined) {
    return deepFreeze({
      name: tool.name,
      description: tool.description,
      parameters: structuredClone(tool.parameters),
    });
  }
  let parameters: Record<string, unknown>;
  try {
    // The model writes the input side: a field with a default is optional to it, not required.
    parameters = z.toJSONSchema(tool.schema, { io: "input" });
  } catch {
    // Fail at startup, not mid-run when the loop lists tools for the model.
    throw new ToolRegistrationError(`Tool ${tool.name} has a schema JSON Schema cannot express`);
  }
  // Providers want a bare object schema; the draft marker is noise to them.
  delete parameters.$schema;
  return deepFreeze({ name: tool.name, description: tool.description, parameters });
}

function assertValidDefinition(tool: ToolDefinition): void {
  if (typeof tool.name !== "string" || !TOOL_NAME.test(tool.name)) {
    throw new ToolRegistrationError(
      `Invalid tool name ${JSON.stringify(tool.name)}: use 1-64 characters from [A-Za-z0-9_]`,
    );
  }
  if (typeof tool.description !== "string" || tool.description.trim() === "") {
    throw new ToolRegistrationError(`Tool ${tool.name} needs a description`);
  }
  if (!(TOOL_EFFECTS as readonly string[]).includes(tool.effect)) {
    throw new ToolRegistrationError(`Tool ${tool.name} has an invalid effect`);
  }
  // A tool that lists its JSON Schema ahead is checked on that, so its schema is not built yet;
  // its test checks that both say the same.
  const strict =
    tool.parameters === undefined
      ? isStrictObjectSchema(tool.schema)
      : isStrictObjectParameters(tool.parameters);
  if (!strict) {
    throw new ToolRegistrationError(`Tool ${tool.name} must use a strict zod object schema`);
  }
  // A shape vouches only for what zod accepts: a loose one would pass a key zod refuses.
  const shape = tool.argumentShape;
  if (
    shape !== undefined &&
    !(typeof shape === "object" && "object" in shape && shape.strict === true)
  ) {
    throw new ToolRegistrationError(`Tool ${tool.name} has an argument shape that is not strict`);
  }
  if (typeof tool.handler !== "function") {
    throw new ToolRegistrationError(`Tool ${tool.name} needs a handler`);
  }
}

function isStrictObjectParameters(parameters: Readonly<Record<string, unknown>>): boolean {
  return parameters.type === "object" && parameters.additionalProperties === false;
}

function isStrictObjectSchema(schema: unknown): boolean {
  return schema instanceof z.ZodObject && schema.def.catchall?._zod.def.type === "never";
}

function schemaOf(definition: ToolDefinition): ToolDefinition["schema"] {
  return definition.schema;
}
