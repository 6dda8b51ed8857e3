/**
 * The journal schema's verdict (journal-schema.ts) without zod, for the lines it accepts. A resume
 * replays every record of the run (~6,000 for 999 calls), and zod's parse of each, with zod's own
 * load and the schema's build, was most of what a long run's resume paid before its first request.
 *
 * The check only ever vouches: `vouchedJournalLine` returns what zod's parse would return (the
 * same values, unknown keys dropped, keys in the schema's order), or `undefined` when it cannot
 * say, and the caller then asks zod, which refuses the line with its own message (or accepts a
 * shape left to it). So a line is refused exactly as before; only an accepted one is faster.
 * What it checks is the schema itself, turned into data by `npm run journal-line-shape`
 * (journal-line-shape.generated.ts; tests/adapters/journal/journal-line-check.test.ts checks
 * that file against the schema and this check against zod's parse).
 */
import { builtOnce } from "../../core/common/built-once.js";
import { JOURNAL_LINE_SHAPE } from "./journal-line-shape.generated.js";
import type { JournalLine } from "./journal-schema.js";
import type { LineShape } from "./line-shape.js";

/** What zod's parse returns for `value`, or `undefined`: not vouched for (ask zod). */
type Vouch = (value: unknown) => unknown;

/** A JSON value is never `undefined`, so it can mean "not vouched for". */
const NOT = undefined;

const vouchLine = builtOnce(() => vouchFor(JOURNAL_LINE_SHAPE));

/** The line as the schema's parse gives it, or `undefined` when zod has to be asked. */
export function vouchedJournalLine(value: unknown): JournalLine | undefined {
  return vouchLine()(value) as JournalLine | undefined;
}

/** The check for `shape`, built once (exported for the tests' smaller shapes). */
export function vouchFor(shape: LineShape): Vouch {
  if (typeof shape === "string") return PRIMITIVES[shape];
  if ("integer" in shape) {
    const { min = -Infinity, above = -Infinity } = shape.integer;
    return (value) =>
      Number.isSafeInteger(value) && (value as number) >= min && (value as number) > above
        ? value
        : NOT;
  }
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
  if ("object" in shape) return objectOf(shape.object);
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

/** zod's object: the shape's fields in the shape's order, the rest dropped. */
function objectOf(fields: Readonly<Record<string, LineShape>>): Vouch {
  const checks = Object.entries(fields).map(([key, field]) => ({
    key,
    optional: typeof field === "object" && "optional" in field,
    vouch: vouchFor(field),
  }));
  return (value) => {
    if (!isObject(value)) return NOT;
    const out: Record<string, unknown> = {};
    for (const { key, optional, vouch } of checks) {
      if (!Object.hasOwn(value, key)) {
        if (optional) continue;
        return NOT;
      }
      const vouched = vouch(value[key]);
      if (vouched === NOT) return NOT;
      out[key] = vouched;
    }
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
