/**
 * A zod schema as data: what scripts/zod-shape.ts writes from the journal's schema and from the
 * builtin tools' argument schemas, and what vouch.ts checks a value against without loading zod.
 * Only the kinds those schemas use; the writer refuses any other.
 */
export type ValueShape =
  | "string"
  | "number"
  | "boolean"
  | "unknown"
  | { readonly string: LengthBounds }
  | { readonly integer: NumberBounds }
  | { readonly number: NumberBounds }
  | { readonly pattern: string }
  | { readonly oneOf: readonly (string | number | boolean)[] }
  | { readonly nullable: ValueShape }
  | { readonly optional: ValueShape }
  | { readonly array: ValueShape }
  | {
      readonly object: Readonly<Record<string, ValueShape>>;
      /** zod's strictObject: a key not in `object` is refused, not dropped. */
      readonly strict?: true;
    }
  | { readonly record: ValueShape }
  | { readonly union: readonly ValueShape[] }
  | { readonly tag: string; readonly options: Readonly<Record<string, ValueShape>> };

/** A string's length in UTF-16 code units, as zod's `min`/`max` count it, both inclusive. */
export interface LengthBounds {
  readonly min?: number;
  readonly max?: number;
}

/** `min`/`max` inclusive, `above`/`below` exclusive, as zod's `gte`/`lte`/`gt`/`lt`. */
export interface NumberBounds {
  readonly min?: number;
  readonly above?: number;
  readonly max?: number;
  readonly below?: number;
}
