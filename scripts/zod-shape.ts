/**
 * A zod schema as data (src/core/common/value-shape.ts), for the checks that vouch for a value
 * without loading zod (src/core/common/vouch.ts): the journal's lines (scripts/journal-line-shape.ts)
 * and the builtin tools' arguments (scripts/tool-parameters.ts). A zod kind or check this does
 * not know stops the generator: the data must say everything the schema checks, and a default,
 * a transform or a refinement is something it cannot say.
 */
import type { LengthBounds, NumberBounds, ValueShape } from "../src/core/common/value-shape.js";

/** The parts of a zod 4 schema's definition read here. */
interface Definition {
  readonly type: string;
  /** Set when the schema is itself a check (z.int(), z.email()): its kind and format. */
  readonly check?: string;
  readonly format?: string;
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
  readonly minimum?: unknown;
  readonly maximum?: unknown;
}

interface Schema {
  readonly _zod: { readonly def: Definition };
}

/** `schema` as a ValueShape; throws on anything it cannot say exactly. */
export function shapeOf(schema: Schema, where = "value"): ValueShape {
  const def = schema._zod.def;
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  const unknownCheck = (): never => {
    throw new Error(`${where}: a ${def.type} check this cannot express: ${JSON.stringify(checks)}`);
  };
  // A schema that is itself a check: only z.int() is said here (a string format is not).
  const format = def.check === undefined ? undefined : `${def.check}:${String(def.format)}`;
  if (format !== undefined && !(def.type === "number" && format === "number_format:safeint")) {
    throw new Error(`${where}: a ${def.type} of format ${format} this cannot express`);
  }
  switch (def.type) {
    case "string": {
      if (checks.length === 0) return "string";
      const [check] = checks;
      const pattern = check?.pattern;
      if (check?.format === "regex") {
        if (checks.length !== 1 || !(pattern instanceof RegExp)) return unknownCheck();
        if (pattern.flags !== "") return unknownCheck();
        return { pattern: pattern.source };
      }
      const bounds: { -readonly [K in keyof LengthBounds]: number } = {};
      for (const { check: kind, minimum, maximum } of checks) {
        if (kind === "min_length" && typeof minimum === "number") bounds.min = minimum;
        else if (kind === "max_length" && typeof maximum === "number") bounds.max = maximum;
        else return unknownCheck();
      }
      return { string: bounds };
    }
    case "number": {
      let safeInteger = format !== undefined;
      const bounds: { -readonly [K in keyof NumberBounds]: number } = {};
      for (const check of checks) {
        const value = check.value;
        if (check.check === "number_format" && check.format === "safeint") safeInteger = true;
        else if (check.check === "greater_than" && typeof value === "number")
          bounds[check.inclusive === true ? "min" : "above"] = value;
        else if (check.check === "less_than" && typeof value === "number")
          bounds[check.inclusive === true ? "max" : "below"] = value;
        else return unknownCheck();
      }
      if (safeInteger) return { integer: bounds };
      return Object.keys(bounds).length === 0 ? "number" : { number: bounds };
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
      if (checks.length > 0 || def.shape === undefined) return unknownCheck();
      const catchall = def.catchall?._zod.def;
      if (catchall !== undefined && catchall.type !== "never") return unknownCheck();
      const object: Record<string, ValueShape> = {};
      for (const [key, field] of Object.entries(def.shape)) {
        if (key === "__proto__" || key === "constructor") {
          throw new Error(`${where}: a field named ${key}`);
        }
        object[key] = shapeOf(field, `${where}.${key}`);
      }
      return catchall === undefined ? { object } : { object, strict: true };
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
      const options: Record<string, ValueShape> = {};
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
