import { describe, expect, it } from "vitest";
import { argumentShapeOf, builtinTools, parametersOf } from "../../scripts/tool-parameters.js";
import { TOOL_ARGUMENT_SHAPES } from "../../src/features/tool-argument-shapes.generated.js";
import { TOOL_PARAMETERS } from "../../src/features/tool-parameters.generated.js";
import { ToolRegistry } from "../../src/core/tools/tool-registry.js";

describe("tool-parameters.generated.ts", () => {
  it("lists every builtin tool, and only those", () => {
    expect(Object.keys(TOOL_PARAMETERS).sort()).toEqual(
      builtinTools()
        .map((tool) => tool.name)
        .sort(),
    );
  });

  it.each(builtinTools().map((tool) => [tool.name, tool] as const))(
    "%s: the JSON Schema shown to the model is its zod schema's, byte for byte (else: npm run tool-parameters)",
    (_name, tool) => {
      expect(tool.parameters).toBeDefined();
      expect(JSON.stringify(tool.parameters)).toBe(JSON.stringify(parametersOf(tool)));
    },
  );

  it("the registry shows the model exactly what it would compute from the schemas", () => {
    const listed = new ToolRegistry(builtinTools()).snapshot().openAITools();
    const computed = new ToolRegistry(
      builtinTools().map((tool) => ({ ...tool, parameters: undefined })),
    )
      .snapshot()
      .openAITools();
    expect(JSON.stringify(listed)).toBe(JSON.stringify(computed));
  });
});

describe("tool-argument-shapes.generated.ts", () => {
  it("lists every builtin tool, and only those", () => {
    expect(Object.keys(TOOL_ARGUMENT_SHAPES)).toEqual(builtinTools().map((tool) => tool.name));
  });

  it.each(builtinTools().map((tool) => [tool.name, tool] as const))(
    "%s: the argument shape the tool path vouches with is its zod schema's (else: npm run tool-parameters)",
    (name, tool) => {
      expect(tool.argumentShape).toBe(
        TOOL_ARGUMENT_SHAPES[name as keyof typeof TOOL_ARGUMENT_SHAPES],
      );
      expect(JSON.stringify(tool.argumentShape)).toBe(JSON.stringify(argumentShapeOf(tool)));
    },
  );
});
