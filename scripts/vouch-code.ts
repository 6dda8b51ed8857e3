/**
 * A ValueShape (src/core/common/value-shape.ts) as straight-line TypeScript: the same verdict and
 * an equal output (key order included) as `vouchFor(shape)` (src/core/common/vouch.ts), given back
 * as the very value when zod's copy would hold the same values, keys and key order, so that a
 * resume does not copy every record it reads; one function per object, array, record,
 * union or tagged union, with every primitive check written inline. A resume vouches for every
 * record of a run (~5,000 for 999 calls): `vouchFor`'s closures, shared by every node of a kind,
 * ran that mostly in the interpreter (~30 ms cold), where code of this shape is quickly compiled.
 * Written into the generated journal-line file (scripts/journal-line-shape.ts); the journal's tests
 * compare its output with zod's parse on every record type and thousands of mutations.
 */
import type { NumberBounds, ValueShape } from "../src/core/common/value-shape.js";

/** The functions for `shape`, the entry point exported as `name`: `(value: unknown) => unknown`. */
export function vouchCode(shape: ValueShape, name: string): string {
  const functions: string[] = [];
  const patterns: string[] = [];
  let count = 0;
  const fresh = (): string => `v${String((count += 1))}`;

  /** An expression for what `shape` vouches of `input` (a variable name): a value or NOT. */
  const expression = (node: ValueShape, input: string): string => {
    if (typeof node === "string") {
      switch (node) {
        case "string":
          return `typeof ${input} === "string" ? ${input} : NOT`;
        case "number":
          return `typeof ${input} === "number" && Number.isFinite(${input}) ? ${input} : NOT`;
        case "boolean":
          return `typeof ${input} === "boolean" ? ${input} : NOT`;
        case "unknown":
          return input;
      }
    }
    if ("string" in node) {
      const { min = 0, max = Infinity } = node.string;
      const bounds = [
        ...(min > 0 ? [`${input}.length >= ${String(min)}`] : []),
        ...(max < Infinity ? [`${input}.length <= ${String(max)}`] : []),
      ];
      return `typeof ${input} === "string"${bounds.map((bound) => ` && ${bound}`).join("")} ? ${input} : NOT`;
    }
    if ("integer" in node) return numberCheck(input, "Number.isSafeInteger", node.integer);
    if ("number" in node) return numberCheck(input, "Number.isFinite", node.number);
    if ("pattern" in node) {
      patterns.push(
        `const P${String(patterns.length)} = new RegExp(${JSON.stringify(node.pattern)});`,
      );
      return `typeof ${input} === "string" && P${String(patterns.length - 1)}.test(${input}) ? ${input} : NOT`;
    }
    if ("oneOf" in node) {
      const tests = node.oneOf.map((one) => `${input} === ${JSON.stringify(one)}`).join(" || ");
      return `${tests} ? ${input} : NOT`;
    }
    if ("nullable" in node) {
      return `${input} === null ? null : ${wrapped(expression(node.nullable, input))}`;
    }
    if ("optional" in node) return expression(node.optional, input);
    return `${functionFor(node)}(${input})`;
  };

  const wrapped = (text: string): string => (/^[\w.]+(\(\w+\))?$/.test(text) ? text : `(${text})`);

  /** A function for a compound node; returns its name. */
  const functionFor = (node: ValueShape): string => {
    const own = fresh();
    const body: string[] = [];
    if (typeof node === "string") throw new Error("a primitive has no function");
    if ("array" in node) {
      body.push(
        "if (!Array.isArray(value)) return NOT;",
        "const values = value as unknown[];",
        "let copy: unknown[] | undefined;",
        "for (let index = 0; index < values.length; index += 1) {",
        "  const element = values[index];",
        `  const vouched = ${expression(node.array, "element")};`,
        "  if (vouched === NOT) return NOT;",
        "  if (copy === undefined && vouched !== element) copy = values.slice(0, index);",
        "  copy?.push(vouched);",
        "}",
        "return copy ?? values;",
      );
    } else if ("object" in node) {
      // Every own key of a plain object is a string key JSON could write (`__proto__` included).
      body.push("if (!isObject(value)) return NOT;", "let present = 0;", "let same = true;");
      const fields = Object.entries(node.object);
      fields.forEach(([key, field], index) => {
        const optional = typeof field === "object" && "optional" in field;
        const at = `f${String(index)}`;
        const checked = `c${String(index)}`;
        const name = JSON.stringify(key);
        body.push(
          `let ${checked}: unknown = NOT;`,
          optional
            ? `if (Object.hasOwn(value, ${name})) {`
            : `if (!Object.hasOwn(value, ${name})) return NOT;\n{`,
          `  const ${at} = value[${name}];`,
          `  ${checked} = ${expression(field, at)};`,
          `  if (${checked} === NOT) return NOT;`,
          `  same &&= ${checked} === ${at};`,
          "  present += 1;",
          "}",
        );
      });
      const names = fields.map(([key]) => JSON.stringify(key));
      patterns.push(`const K${own.slice(1)}: readonly string[] = [${names.join(", ")}];`);
      body.push(
        ...(node.strict === true
          ? ["if (Reflect.ownKeys(value).length !== present) return NOT;"]
          : []),
        // The keys in the shape's order and no other: walked, not listed (no array per object).
        "if (same) {",
        "  let index = 0;",
        `  const expected = K${own.slice(1)};`,
        "  for (const key in value) {",
        "    while (index < expected.length && expected[index] !== key && !Object.hasOwn(value, expected[index] as string)) index += 1;",
        "    if (expected[index] !== key) { same = false; break; }",
        "    index += 1;",
        "  }",
        "}",
        // The same values, keys and order: zod's copy would be equal to the value itself.
        "if (same) return value;",
        "const out: Record<string, unknown> = {};",
        // A field's check is NOT only where the field is absent (a refusal returned above).
        ...fields.map(([key], index) => {
          const checked = `c${String(index)}`;
          return `if (${checked} !== NOT) out[${JSON.stringify(key)}] = ${checked};`;
        }),
        "return out;",
      );
    } else if ("record" in node) {
      body.push(
        'if (!isObject(value) || Object.hasOwn(value, "__proto__") || Object.hasOwn(value, "constructor")) return NOT;',
        "const keys = Object.keys(value);",
        "let copy: Record<string, unknown> | undefined;",
        "for (let index = 0; index < keys.length; index += 1) {",
        "  const key = keys[index] as string;",
        "  const field = value[key];",
        `  const vouched = ${expression(node.record, "field")};`,
        "  if (vouched === NOT) return NOT;",
        "  if (copy === undefined && vouched !== field) {",
        "    copy = {};",
        "    for (const before of keys.slice(0, index)) copy[before] = value[before];",
        "  }",
        "  if (copy !== undefined) copy[key] = vouched;",
        "}",
        "return copy ?? value;",
      );
    } else if ("union" in node) {
      node.union.forEach((option, index) => {
        body.push(
          `const u${String(index)} = ${expression(option, "value")};`,
          `if (u${String(index)} !== NOT) return u${String(index)};`,
        );
      });
      body.push("return NOT;");
    } else if ("tag" in node) {
      body.push(
        "if (!isObject(value)) return NOT;",
        `switch (value[${JSON.stringify(node.tag)}]) {`,
      );
      for (const [option, shape] of Object.entries(node.options)) {
        body.push(`  case ${JSON.stringify(option)}: return ${expression(shape, "value")};`);
      }
      body.push("  default: return NOT;", "}");
    } else {
      throw new Error(`no function for ${JSON.stringify(node)}`);
    }
    functions.push(`function ${own}(value: unknown): unknown {\n${body.join("\n")}\n}`);
    return own;
  };

  const entry = functionFor(shape);
  return [
    '/** A JSON value is never `undefined`, so it can mean "not vouched for". */',
    "const NOT = undefined;",
    ...patterns,
    "",
    "/** A plain object as JSON.parse makes it; anything else (an array, a class) is zod's to judge. */",
    "function isObject(value: unknown): value is Record<string, unknown> {",
    '  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;',
    "}",
    "",
    `/** What zod's parse returns for \`value\`, or \`undefined\`: not vouched for (ask zod). */`,
    `export const ${name}: (value: unknown) => unknown = ${entry};`,
    "",
    ...functions.reverse(),
  ].join("\n");
}

function numberCheck(input: string, kind: string, bounds: NumberBounds): string {
  const tests = [`typeof ${input} === "number"`, `${kind}(${input})`];
  if (bounds.min !== undefined) tests.push(`${input} >= ${String(bounds.min)}`);
  if (bounds.above !== undefined) tests.push(`${input} > ${String(bounds.above)}`);
  if (bounds.max !== undefined) tests.push(`${input} <= ${String(bounds.max)}`);
  if (bounds.below !== undefined) tests.push(`${input} < ${String(bounds.below)}`);
  return `${tests.join(" && ")} ? ${input} : NOT`;
}
