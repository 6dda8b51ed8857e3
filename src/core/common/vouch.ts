/**
 * A zod schema's verdict without zod, for the values it accepts: `vouchFor(shape)` returns what
 * zod's parse of the schema the shape was written from (value-shape.ts) would return (the same
 * values, a plain object's unknown keys dropped, keys in the schema's order), or `undefined` when
 * it cannot say. The caller then asks zod, which refuses with its own message (or accepts a value
 * left to it): a refusal is zod's, byte for byte; only an accepted value skips loading zod.
 * The journal's reader (a resume replays every record) and the tool path (a run's first call)
 * use it; their tests compare it with zod's parse on thousands of values.
 */
import type { NumberBounds, ValueShape } from "./value-shape.js";

/** What zod's parse returns for `value`, or `undefined`: not vouched for (ask zod). */
export type Vouch = (value: unknown) => unknown;

/** A JSON value is never `undefined`, so it can mean "not vouched for". */
const NOT = undefined;

/** The check for `shape`, built once and then called for each value. */
export function vouchFor(shape: ValueShape): Vouch {
  if (typeof shape === "string") return PRIMITIVES[shape];
  if ("string" in shape) {
    const { min = 0, max = Infinity } = shape.string;
    return (value) =>
      typeof value === "string" && value.length >= min && value.length <= max ? value : NOT;
  }
  if ("integer" in shape) return numberWithin(shape.integer, Number.isSafeInteger);
  if ("number" in shape) return numberWithin(shape.number, Number.isFinite);
  if ("pattern" in shape) {
    const pattern = new RegExp(shape.pattern);
    return (value) => (typeof value === "string" && pattern.test(value) ? value : NOT);
  }
  if ("oneOf" in shape) {
    const values = new Set<unknown>(shape.oneOf);
    return (value) => (values.has(value) ? value : NOT);
  }
  if ("nullable" in shape) {
    const inner = vouchFor(shape.nullable);
    return (value) => (value === null ? null : inner(value));
  }
  if ("optional" in shape) {
    // Only an object's field is optional, and an absent field is the object's to skip: a value
    // that is there (JSON has no `undefined`) is checked as the inner shape.
    return vouchFor(shape.optional);
  }
  if ("array" in shape) return arrayOf(vouchFor(shape.array));
  if ("object" in shape) return objectOf(shape.object, shape.strict === true);
  if ("record" in shape) return recordOf(vouchFor(shape.record));
  if ("union" in shape) {
    const options = shape.union.map(vouchFor);
    return (value) => {
      for (const option of options) {
        const vouched = option(value);
        if (vouched !== NOT) return vouched;
      }
      return NOT;
    };
  }
  const tag = shape.tag;
  const options = new Map(
    Object.entries(shape.options).map(([name, option]) => [name, vouchFor(option)]),
  );
  return (value) => {
    if (!isObject(value)) return NOT;
    const name = value[tag];
    const option = typeof name === "string" ? options.get(name) : undefined;
    return option === undefined ? NOT : option(value);
  };
}

const PRIMITIVES: Readonly<Record<"string" | "number" | "boolean" | "unknown", Vouch>> = {
  string: (value) => (typeof value === "string" ? value : NOT),
  // zod's number refuses NaN and the infinities (JSON.parse makes neither).
  number: (value) => (typeof value === "number" && Number.isFinite(value) ? value : NOT),
  boolean: (value) => (typeof value === "boolean" ? value : NOT),
  // Left unchecked, as zod leaves it: the same value, not a copy.
  unknown: (value) => value,
};

/** zod's int (a safe integer) or number (finite), within the bounds. */
function numberWithin(bounds: NumberBounds, kind: (value: number) => boolean): Vouch {
  const { min = -Infinity, above = -Infinity, max = Infinity, below = Infinity } = bounds;
  const within = (value: number): boolean =>
    kind(value) && value >= min && value > above && value <= max && value < below;
  return (value) => (typeof value === "number" && within(value) ? value : NOT);
}

function arrayOf(item: Vouch): Vouch {
  return (value) => {
    if (!Array.isArray(value)) return NOT;
    const out: unknown[] = [];
    for (const element of value) {
      const vouched = item(element);
      if (vouched === NOT) return NOT;
      out.push(vouched);
    }
    return out;
  };
}

/**
 * zod's object: the shape's fields in the shape's order, the rest dropped, or for a strict one
 * not vouched for (zod refuses an unknown key).
 */
function objectOf(fields: Readonly<Record<string, ValueShape>>, strict: boolean): Vouch {
  const checks = Object.entries(fields).map(([key, field]) => ({
    key,
    optional: typeof field === "object" && "optional" in field,
    vouch: vouchFor(field),
  }));
  return (value) => {
    if (!isObject(value)) return NOT;
    const out: Record<string, unknown> = {};
    let present = 0;
    for (const { key, optional, vouch } of checks) {
      if (!Object.hasOwn(value, key)) {
        if (optional) continue;
        return NOT;
      }
      const vouched = vouch(value[key]);
      if (vouched === NOT) return NOT;
      out[key] = vouched;
      present += 1;
    }
    // Every own key of a plain object is a string key JSON could write (`__proto__` included).
    if (strict && Reflect.ownKeys(value).length !== present) return NOT;
    return out;
  };
}

/**
 * zod's record of string keys: a copy, key for key. A `__proto__` or `constructor` key is left to
 * zod (it skips the first and reads the second as the object's constructor).
 */
function recordOf(item: Vouch): Vouch {
  return (value) => {
    if (
      !isObject(value) ||
      Object.hasOwn(value, "__proto__") ||
      Object.hasOwn(value, "constructor")
    )
      return NOT;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const vouched = item(value[key]);
      if (vouched === NOT) return NOT;
      out[key] = vouched;
    }
    return out;
  };
}

/** A plain object as JSON.parse makes it; anything else (an array, a class) is zod's to judge. */
function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}
