/**
 * The writer of schemas as data (scripts/zod-shape.ts) must say everything a schema checks, or
 * stop: a check it dropped would let the vouch accept what zod refuses.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { shapeOf } from "../../scripts/zod-shape.js";

describe("shapeOf", () => {
  it("says what the tools' schemas check", () => {
    expect(
      shapeOf(
        z.strictObject({
          path: z.string().min(1).max(9),
          count: z.int().min(0).max(20).optional(),
          ratio: z.number().gt(0).lt(1),
          flag: z.boolean(),
          mode: z.enum(["a", "b"]),
          args: z.array(z.string()),
        }),
      ),
    ).toEqual({
      object: {
        path: { string: { min: 1, max: 9 } },
        count: { optional: { integer: { min: 0, max: 20 } } },
        ratio: { number: { above: 0, below: 1 } },
        flag: "boolean",
        mode: { oneOf: ["a", "b"] },
        args: { array: "string" },
      },
      strict: true,
    });
  });

  it("says z.int() without bounds is an integer, not any number", () => {
    expect(shapeOf(z.int())).toEqual({ integer: {} });
  });

  it.each([
    ["a default", z.strictObject({ a: z.string().default("x") })],
    ["a transform", z.strictObject({ a: z.string().transform((text) => text.length) })],
    ["a refinement", z.strictObject({ a: z.string().refine((text) => text !== "x") })],
    ["a refined object", z.strictObject({ a: z.string() }).refine(() => true)],
    ["a loose object", z.looseObject({ a: z.string() })],
    ["a string format", z.strictObject({ a: z.email() })],
    ["a string check", z.strictObject({ a: z.string().startsWith("x") })],
    ["a number format", z.strictObject({ a: z.int32() })],
    ["an array bound", z.strictObject({ a: z.array(z.string()).min(1) })],
  ])("stops at %s", (_what, schema) => {
    expect(() => shapeOf(schema)).toThrow();
  });
});
