/**
 * Writes src/adapters/journal/journal-line-shape.generated.ts: the journal's zod schema
 * (journal-schema.ts) as data, for the check a resume runs on each record without loading zod
 * (journal-line-check.ts). Run `npm run journal-line-shape` after changing the schema:
 * tests/adapters/journal/journal-line-check.test.ts fails until the file matches again. A zod
 * kind or check this does not know stops it: the data must say everything the schema checks.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { journalLineSchema, type LineShape } from "../src/adapters/journal/index.js";

const GENERATED = fileURLToPath(
  new URL("../src/adapters/journal/journal-line-shape.generated.ts", import.meta.url),
);

/** The parts of a zod 4 schema's definition read here. */
interface Definition {
  readonly type: string;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDefinition } }[];
  readonly values?: readonly unknown[];
  readonly entries?: Readonly<Record<string, unknown>>;
  readonly innerType?: Schema;
  readonly element?: Schema;
  readonly shape?: Readonly<Record<string, Schema>>;
  readonly keyType?: Schema;
  readonly valueType?: Schema;
  readonly options?: readonly Schema[];
  readonly discriminator?: string;
  readonly catchall?: Schema;
}

interface CheckDefinition {
  readonly check: string;
  readonly format?: string;
  readonly pattern?: RegExp;
  readonly value?: unknown;
  readonly inclusive?: boolean;
}

interface Schema {
  readonly _zod: { readonly def: Definition };
}

/** `schema` as a LineShape; throws on anything it cannot say exactly. */
export function shapeOf(schema: Schema, where = "line"): LineShape {
  const def = schema._zod.def;
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  const unknownCheck = (): never => {
    throw new Error(`${where}: a ${def.type} check this cannot express: ${JSON.stringify(checks)}`);
  };
  switch (def.type) {
    case "string": {
      if (checks.length === 0) return "string";
      const [check] = checks;
      const pattern = check?.pattern;
      if (checks.length !== 1 || check?.format !== "regex" || !(pattern instanceof RegExp))
        return unknownCheck();
      if (pattern.flags !== "") return unknownCheck();
      return { pattern: pattern.source };
    }
    case "number": {
      if (checks.length === 0) return "number";
      let safeInteger = false;
      const bounds: { min?: number; above?: number } = {};
      for (const check of checks) {
        if (check.check === "number_format" && check.format === "safeint") safeInteger = true;
        else if (check.check === "greater_than" && typeof check.value === "number")
          bounds[check.inclusive === true ? "min" : "above"] = check.value;
        else return unknownCheck();
      }
      if (!safeInteger) return unknownCheck();
      return { integer: bounds };
    }
    case "boolean":
    case "unknown":
      if (checks.length > 0) return unknownCheck();
      return def.type;
    case "literal":
    case "enum": {
      if (checks.length > 0) return unknownCheck();
      const values = def.type === "literal" ? def.values : Object.values(def.entries ?? {});
      const oneOf = (values ?? []).map((value) => {
        if (typeof value === "string" || typeof value === "boolean") return value;
        if (typeof value === "number" && Number.isFinite(value)) return value;
        throw new Error(`${where}: a ${def.type} value this cannot express: ${String(value)}`);
      });
      return { oneOf };
    }
    case "nullable":
    case "optional":
      if (checks.length > 0 || def.innerType === undefined) return unknownCheck();
      return def.type === "nullable"
        ? { nullable: shapeOf(def.innerType, where) }
        : { optional: shapeOf(def.innerType, where) };
    case "array":
      if (checks.length > 0 || def.element === undefined) return unknownCheck();
      return { array: shapeOf(def.element, `${where}[]`) };
    case "object": {
      if (checks.length > 0 || def.shape === undefined || def.catchall !== undefined)
        return unknownCheck();
      const object: Record<string, LineShape> = {};
      for (const [key, field] of Object.entries(def.shape)) {
        if (key === "__proto__" || key === "constructor") {
          throw new Error(`${where}: a field named ${key}`);
        }
        object[key] = shapeOf(field, `${where}.${key}`);
      }
      return { object };
    }
    case "record": {
      const keyType = def.keyType?._zod.def;
      if (checks.length > 0 || def.valueType === undefined) return unknownCheck();
      if (keyType?.type !== "string" || (keyType.checks ?? []).length > 0) {
        throw new Error(`${where}: a record whose keys are not plain strings`);
      }
      return { record: shapeOf(def.valueType, `${where}{}`) };
    }
    case "union": {
      if (checks.length > 0 || def.options === undefined) return unknownCheck();
      if (def.discriminator === undefined) {
        return { union: def.options.map((option) => shapeOf(option, `${where}|`)) };
      }
      const tag = def.discriminator;
      const options: Record<string, LineShape> = {};
      for (const option of def.options) {
        const tagged = option._zod.def.shape?.[tag];
        const values = tagged?._zod.def.type === "literal" ? tagged._zod.def.values : undefined;
        const [name] = values ?? [];
        if (values?.length !== 1 || typeof name !== "string" || name in options) {
          throw new Error(`${where}: an option of ${tag} that is not one string literal`);
        }
        options[name] = shapeOf(option, `${where}(${tag}=${name})`);
      }
      return { tag, options };
    }
    default:
      throw new Error(`${where}: a zod ${def.type} this cannot express`);
  }
}

/** The schema's shape as the generated file holds it. */
export function journalLineShape(): LineShape {
  return shapeOf(journalLineSchema());
}

async function generatedText(): Promise<string> {
  const text = [
    "// Generated by `npm run journal-line-shape` (scripts/journal-line-shape.ts) from the journal's",
    "// zod schema (journal-schema.ts); tests/adapters/journal/journal-line-check.test.ts checks that",
    "// it still matches it.",
    'import type { LineShape } from "./line-shape.js";',
    "",
    `export const JOURNAL_LINE_SHAPE: LineShape = ${JSON.stringify(journalLineShape(), null, 2)};`,
    "",
  ].join("\n");
  return format(text, { ...(await resolveConfig(GENERATED)), filepath: GENERATED });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(GENERATED, await generatedText());
  process.stderr.write(`journal-line-shape: wrote ${GENERATED}\n`);
}
