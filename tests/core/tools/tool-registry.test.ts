import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolCall } from "../../../src/core/ports/messages.js";
import { MAX_ARGUMENTS_BYTES } from "../../../src/core/tools/argument-limits.js";
import { PreparedToolCall } from "../../../src/core/tools/prepared-tool-call.js";
import type {
  ToolDefinition,
  ToolEffect,
  ToolSchema,
} from "../../../src/core/tools/tool-definition.js";
import { defineTool } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistrationError, ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess, type ToolResult } from "../../../src/core/tools/tool-result.js";

const noteSchema = z.strictObject({
  path: z.string().describe("Workspace-relative path"),
  options: z.strictObject({ overwrite: z.boolean() }).optional(),
  mode: z.enum(["plain", "markdown"]).default("plain"),
});

/** A tool that records exactly what its handler received. */
function recordingNoteTool(): { tool: ToolDefinition; received: unknown[] } {
  const received: unknown[] = [];
  const tool = defineTool({
    name: "note",
    description: "Write a note",
    effect: "write",
    schema: noteSchema,
    handler: (args) => {
      received.push(args);
      return Promise.resolve(toolSuccess(`noted ${args.path}`));
    },
  });
  return { tool, received };
}

function toolReturning(name: string, handler: () => Promise<unknown>): ToolDefinition {
  return {
    name,
    description: `Tool ${name}`,
    effect: "read",
    schema: z.strictObject({}),
    handler: handler as () => Promise<ToolResult>,
  };
}

function callOf(name: string, args: string, id = "call_1"): ToolCall {
  return { id, name, arguments: args };
}

function prepareResult(registry: ToolRegistry, call: ToolCall): ToolResult | undefined {
  const outcome = registry.snapshot().prepare(call);
  return outcome.ok ? undefined : outcome.result;
}

describe("prepare: unknown tools", () => {
  it.each(["missing", "toString", "__proto__", "constructor", "hasOwnProperty", ""])(
    "%j is unknown_tool",
    (name) => {
      const registry = new ToolRegistry([recordingNoteTool().tool]);
      expect(prepareResult(registry, callOf(name, "{}"))).toEqual({
        content: `Error [unknown_tool]: Unknown tool: ${name} (available tools: note)`,
        isError: true,
        errorCode: "unknown_tool",
      });
    },
  );
});

describe("prepare: invalid JSON", () => {
  it.each([
    ["{not json", "Error [invalid_json]: Arguments for note are not valid JSON"],
    ['{"path": "a"', "Error [invalid_json]: Arguments for note are not valid JSON"],
    ["[]", "Error [invalid_json]: Arguments for note must be a JSON object"],
    ['"x"', "Error [invalid_json]: Arguments for note must be a JSON object"],
    ["null", "Error [invalid_json]: Arguments for note must be a JSON object"],
    ["1", "Error [invalid_json]: Arguments for note must be a JSON object"],
  ])("%j", (raw, content) => {
    const registry = new ToolRegistry([recordingNoteTool().tool]);
    expect(prepareResult(registry, callOf("note", raw))).toEqual({
      content,
      isError: true,
      errorCode: "invalid_json",
    });
  });
});

describe("prepare: invalid arguments name the failing field paths", () => {
  it.each([
    [
      "missing field",
      {},
      "Error [invalid_arguments]: Invalid arguments for note: path: Invalid input: expected string, received undefined",
    ],
    [
      "wrong type",
      { path: 7 },
      "Error [invalid_arguments]: Invalid arguments for note: path: Invalid input: expected string, received number",
    ],
    [
      "nested wrong type",
      { path: "a", options: { overwrite: "yes" } },
      "Error [invalid_arguments]: Invalid arguments for note: options.overwrite: Invalid input: expected boolean, received string",
    ],
    [
      "unrecognized top-level key",
      { path: "a", requires_approval: false },
      "Error [invalid_arguments]: Invalid arguments for note: requires_approval: unexpected field",
    ],
    [
      "unrecognized nested key",
      { path: "a", options: { overwrite: true, force: true } },
      "Error [invalid_arguments]: Invalid arguments for note: options.force: unexpected field",
    ],
    [
      "several problems at once",
      { path: 1, extra: 2 },
      "Error [invalid_arguments]: Invalid arguments for note: path: Invalid input: expected string, received number; extra: unexpected field",
    ],
  ])("%s", (_label, args, content) => {
    const registry = new ToolRegistry([recordingNoteTool().tool]);
    expect(prepareResult(registry, callOf("note", JSON.stringify(args)))).toEqual({
      content,
      isError: true,
      errorCode: "invalid_arguments",
    });
  });

  it("a refinement that throws becomes invalid_arguments instead of escaping to the loop", () => {
    const registry = new ToolRegistry([
      {
        ...toolReturning("fragile", () => Promise.resolve(toolSuccess("ran"))),
        schema: z.strictObject({
          value: z.string().refine(() => {
            throw new Error("refinement crashed");
          }),
        }),
      },
    ]);
    expect(prepareResult(registry, callOf("fragile", '{"value":"a"}'))).toEqual({
      content: "Error [invalid_arguments]: Arguments for fragile could not be validated",
      isError: true,
      errorCode: "invalid_arguments",
    });
  });
});

describe("prepare: success", () => {
  it("returns a frozen prepared call with schema output and the raw text", () => {
    const registry = new ToolRegistry([recordingNoteTool().tool]);
    const outcome = registry.snapshot().prepare(callOf("note", '{"path":"a.txt"}', "call_9"));
    if (!outcome.ok) throw new Error(outcome.result.content);
    const prepared = outcome.call;
    expect(PreparedToolCall.isPrepared(prepared)).toBe(true);
    const { callId, toolName, effect, rawArguments } = prepared;
    expect({ callId, toolName, effect, arguments: prepared.arguments, rawArguments }).toEqual({
      callId: "call_9",
      toolName: "note",
      effect: "write",
      arguments: { path: "a.txt", mode: "plain" },
      rawArguments: '{"path":"a.txt"}',
    });
    expect(Object.isFrozen(prepared)).toBe(true);
    expect(Object.isFrozen(prepared.arguments)).toBe(true);
  });
});

describe("register", () => {
  const valid = (): ToolDefinition =>
    toolReturning("ok_tool", () => Promise.resolve(toolSuccess("")));

  it.each([
    ["has-dash", 'Invalid tool name "has-dash": use 1-64 characters from [A-Za-z0-9_]'],
    ["has space", 'Invalid tool name "has space": use 1-64 characters from [A-Za-z0-9_]'],
    ["", 'Invalid tool name "": use 1-64 characters from [A-Za-z0-9_]'],
    [
      "a".repeat(65),
      `Invalid tool name "${"a".repeat(65)}": use 1-64 characters from [A-Za-z0-9_]`,
    ],
  ])("rejects name %j", (name, message) => {
    expect(() => new ToolRegistry([{ ...valid(), name }])).toThrow(
      new ToolRegistrationError(message),
    );
  });

  it("accepts a 64-character name", () => {
    const name = "a".repeat(64);
    expect(new ToolRegistry([{ ...valid(), name }]).names()).toEqual([name]);
  });

  it("rejects a non-string name even when its text would match", () => {
    const name = 123 as unknown as string;
    expect(() => new ToolRegistry([{ ...valid(), name }])).toThrow(
      new ToolRegistrationError("Invalid tool name 123: use 1-64 characters from [A-Za-z0-9_]"),
    );
  });

  it("rejects a duplicate name", () => {
    const registry = new ToolRegistry([valid()]);
    expect(() => {
      registry.register(valid());
    }).toThrow(new ToolRegistrationError("Tool already registered: ok_tool"));
  });

  it.each<[string, ToolSchema]>([
    // The type admits these; only the runtime check at registration stops them.
    ["z.object", z.object({ a: z.string() })],
    ["z.looseObject", z.looseObject({ a: z.string() })],
    ["z.string", z.string() as unknown as ToolSchema],
  ])("rejects a non-strict schema (%s)", (_label, schema) => {
    expect(() => new ToolRegistry([{ ...valid(), schema }])).toThrow(
      new ToolRegistrationError("Tool ok_tool must use a strict zod object schema"),
    );
  });

  it("accepts z.object(...).strict()", () => {
    const schema = z.object({ a: z.string() }).strict();
    expect(new ToolRegistry([{ ...valid(), schema }]).names()).toEqual(["ok_tool"]);
  });

  it("rejects a schema JSON Schema cannot express at registration, not mid-run", () => {
    const schema = z.strictObject({ when: z.date() });
    expect(() => new ToolRegistry([{ ...valid(), schema }])).toThrow(
      new ToolRegistrationError("Tool ok_tool has a schema JSON Schema cannot express"),
    );
  });

  it.each(["delete", "network", "", "READ"])("rejects effect %j", (effect) => {
    expect(() => new ToolRegistry([{ ...valid(), effect: effect as ToolEffect }])).toThrow(
      new ToolRegistrationError("Tool ok_tool has an invalid effect"),
    );
  });

  it("rejects an empty description and a missing handler", () => {
    expect(() => new ToolRegistry([{ ...valid(), description: " " }])).toThrow(
      new ToolRegistrationError("Tool ok_tool needs a description"),
    );
    const handler = undefined as unknown as ToolDefinition["handler"];
    expect(() => new ToolRegistry([{ ...valid(), handler }])).toThrow(
      new ToolRegistrationError("Tool ok_tool needs a handler"),
    );
  });
});

describe("snapshot", () => {
  it("does not see tools registered after it was taken", () => {
    const registry = new ToolRegistry([recordingNoteTool().tool]);
    const snapshot = registry.snapshot();
    registry.register(toolReturning("later", () => Promise.resolve(toolSuccess("late"))));
    expect(snapshot.names()).toEqual(["note"]);
    expect(snapshot.openAITools().map((spec) => spec.name)).toEqual(["note"]);
    const outcome = snapshot.prepare(callOf("later", "{}"));
    expect(outcome.ok ? "prepared" : outcome.result.content).toBe(
      "Error [unknown_tool]: Unknown tool: later (available tools: note)",
    );
    expect(registry.snapshot().names()).toEqual(["note", "later"]);
  });

  it("is frozen and reports effects", () => {
    const snapshot = new ToolRegistry([recordingNoteTool().tool]).snapshot();
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(snapshot.effectOf("note")).toBe("write");
    expect(snapshot.effectOf("toString")).toBeUndefined();
  });
});

describe("openAITools", () => {
  it("exposes only name, description and the input JSON Schema without $schema", () => {
    const specs = new ToolRegistry([recordingNoteTool().tool]).snapshot().openAITools();
    expect(specs).toEqual([
      {
        name: "note",
        description: "Write a note",
        parameters: {
          type: "object",
          properties: {
            path: { type: "string", description: "Workspace-relative path" },
            options: {
              type: "object",
              properties: { overwrite: { type: "boolean" } },
              required: ["overwrite"],
              additionalProperties: false,
            },
            mode: { type: "string", enum: ["plain", "markdown"], default: "plain" },
          },
          // `mode` has a default, so the model may leave it out.
          required: ["path"],
          additionalProperties: false,
        },
      },
    ]);
    for (const spec of specs)
      expect(Object.keys(spec).sort()).toEqual(["description", "name", "parameters"]);
  });

  it("is worked out once at registration and frozen, so no turn can change what the next one sends", () => {
    const registry = new ToolRegistry([recordingNoteTool().tool]);
    const [first] = registry.snapshot().openAITools();
    const [second] = registry.snapshot().openAITools();
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.parameters)).toBe(true);
    expect(Object.isFrozen(first?.parameters.properties)).toBe(true);
  });
});

describe("invoke", () => {
  it("passes the schema output to the handler with the call id", async () => {
    const { tool, received } = recordingNoteTool();
    const snapshot = new ToolRegistry([tool]).snapshot();
    const outcome = snapshot.prepare(callOf("note", '{"path":"a.txt"}'));
    if (!outcome.ok) throw new Error(outcome.result.content);
    expect(await snapshot.invoke(outcome.call)).toEqual({ content: "noted a.txt", isError: false });
    expect(received).toEqual([{ path: "a.txt", mode: "plain" }]);
  });

  it("re-parses the raw arguments: a hand-built call with bogus arguments never reaches the handler with them", async () => {
    const { tool, received } = recordingNoteTool();
    const snapshot = new ToolRegistry([tool]).snapshot();
    const forged = new PreparedToolCall(callOf("note", '{"path":"safe.txt"}'), "write", {
      path: "../../etc/passwd",
      injected: true,
    });
    expect(await snapshot.invoke(forged)).toEqual({ content: "noted safe.txt", isError: false });
    expect(received).toEqual([{ path: "safe.txt", mode: "plain" }]);
  });

  it("a hand-built call with invalid raw arguments is refused and the handler is not run", async () => {
    const { tool, received } = recordingNoteTool();
    const snapshot = new ToolRegistry([tool]).snapshot();
    const forged = new PreparedToolCall(callOf("note", '{"path":1}'), "write", { path: "a" });
    expect(await snapshot.invoke(forged)).toEqual({
      content:
        "Error [invalid_arguments]: Invalid arguments for note: path: Invalid input: expected string, received number",
      isError: true,
      errorCode: "invalid_arguments",
    });
    expect(received).toEqual([]);
  });

  it("a call for a tool this snapshot lacks is unknown_tool", async () => {
    const snapshot = new ToolRegistry([]).snapshot();
    const forged = new PreparedToolCall(callOf("note", "{}"), "read", {});
    expect(await snapshot.invoke(forged)).toEqual({
      content: "Error [unknown_tool]: Unknown tool: note (available tools: none)",
      isError: true,
      errorCode: "unknown_tool",
    });
  });

  async function invokeReturning(handler: () => Promise<unknown>): Promise<ToolResult> {
    const snapshot = new ToolRegistry([toolReturning("probe", handler)]).snapshot();
    const outcome = snapshot.prepare(callOf("probe", "{}"));
    if (!outcome.ok) throw new Error(outcome.result.content);
    return snapshot.invoke(outcome.call);
  }

  it("a handler throw becomes tool_execution_error", async () => {
    expect(await invokeReturning(() => Promise.reject(new Error("disk on fire")))).toEqual({
      content: "Error [tool_execution_error]: Tool probe failed: disk on fire",
      isError: true,
      errorCode: "tool_execution_error",
    });
    // Handlers are untrusted code and may throw something that is not an Error.
    const notAnError: unknown = "plain text";
    expect(await invokeReturning(() => Promise.reject(notAnError as Error))).toEqual({
      content: "Error [tool_execution_error]: Tool probe failed: plain text",
      isError: true,
      errorCode: "tool_execution_error",
    });
  });

  it.each<[string, unknown]>([
    ["undefined", undefined],
    ["a string", "done"],
    ["content not a string", { content: 1, isError: false }],
    ["isError missing", { content: "x" }],
    ["errorCode not a string", { content: "x", isError: true, errorCode: 5 }],
  ])("a malformed return (%s) becomes invalid_tool_result", async (_label, value) => {
    expect(await invokeReturning(() => Promise.resolve(value))).toEqual({
      content: "Error [invalid_tool_result]: Tool handler returned an invalid result (tool probe)",
      isError: true,
      errorCode: "invalid_tool_result",
    });
  });

  it("returns a frozen copy holding only the contract's fields", async () => {
    const returned = { content: "x", isError: true, errorCode: "custom", secret: "leak" };
    const result = await invokeReturning(() => Promise.resolve(returned));
    expect(result).toEqual({ content: "x", isError: true, errorCode: "custom" });
    expect(Object.isFrozen(result)).toBe(true);
    expect(result).not.toBe(returned);
  });
});

describe("prepare: arguments too large", () => {
  it("refuses arguments over the limit by size alone, before parsing them", () => {
    const { tool, received } = recordingNoteTool();
    const registry = new ToolRegistry([tool]);
    // Not even JSON: a parse would say invalid_json, so this result shows the size came first.
    const args = "{".repeat(MAX_ARGUMENTS_BYTES + 1);
    expect(prepareResult(registry, callOf("note", args))).toEqual({
      content:
        `Error [arguments_too_large]: Arguments for note are ${String(MAX_ARGUMENTS_BYTES + 1)} ` +
        `bytes, over the ${String(MAX_ARGUMENTS_BYTES)}-byte limit; nothing was run. ` +
        "Split the work into smaller calls",
      isError: true,
      errorCode: "arguments_too_large",
    });
    expect(received).toEqual([]);
  });

  it("counts UTF-8 bytes, not characters", () => {
    const registry = new ToolRegistry([recordingNoteTool().tool]);
    const args = JSON.stringify({ path: "é".repeat(MAX_ARGUMENTS_BYTES / 2) });
    expect(prepareResult(registry, callOf("note", args))?.errorCode).toBe("arguments_too_large");
  });
});

describe("prepareSchemas", () => {
  it("builds each lazy schema now, before any call", () => {
    let builds = 0;
    const schema = z.strictObject({ path: z.string() });
    const lazy: ToolDefinition = {
      name: "lazy",
      description: "A tool whose schema is built at its first use",
      effect: "read",
      parameters: {
        type: "object",
        properties: { path: { type: "string" } },
        required: ["path"],
        additionalProperties: false,
      },
      get schema() {
        builds += 1;
        return schema;
      },
      handler: () => Promise.resolve(toolSuccess("ok")),
    };
    const registry = new ToolRegistry([lazy]);
    expect(builds).toBe(0);
    registry.prepareSchemas();
    expect(builds).toBe(1);
    const outcome = registry.snapshot().prepare(callOf("lazy", '{"path":"a"}'));
    expect(outcome.ok).toBe(true);
  });

  it("has zod ready each schema's checker with one parse of {}, which runs no handler", () => {
    const schema = z.strictObject({ path: z.string() });
    const parsed: unknown[] = [];
    // zod binds each schema's methods to it: this one stands in for the bound one.
    const safeParse = schema.safeParse.bind(schema);
    schema.safeParse = (input, params) => {
      parsed.push(input);
      return safeParse(input, params);
    };
    let handled = 0;
    const tool = defineTool({
      name: "read",
      description: "Read a file",
      effect: "read",
      schema,
      handler: () => {
        handled += 1;
        return Promise.resolve(toolSuccess("ok"));
      },
    });
    const registry = new ToolRegistry([tool]);
    registry.prepareSchemas();
    expect(parsed).toEqual([{}]);
    expect(handled).toBe(0);
    const outcome = registry.snapshot().prepare(callOf("read", '{"path":"a"}'));
    expect(outcome.ok).toBe(true);
    expect(parsed).toEqual([{}, { path: "a" }]);
  });

  it("leaves a schema whose check throws for the first call to report", () => {
    const throwing = z.strictObject({ path: z.string().optional() }).refine(() => {
      throw new Error("refinement failed");
    });
    const tool = defineTool({
      name: "odd",
      description: "A tool whose refinement throws",
      effect: "read",
      schema: throwing,
      handler: () => Promise.resolve(toolSuccess("ok")),
    });
    const registry = new ToolRegistry([tool]);
    expect(() => {
      registry.prepareSchemas();
    }).not.toThrow();
    const outcome = registry.snapshot().prepare(callOf("odd", "{}"));
    expect(outcome).toMatchObject({
      ok: false,
      result: {
        isError: true,
        errorCode: "invalid_arguments",
        content: "Error [invalid_arguments]: Arguments for odd could not be validated",
      },
    });
  });
});
