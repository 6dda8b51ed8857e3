/**
 * A zod schema as data, only the kinds the journal's schema uses: what scripts/journal-line-shape.ts
 * writes from it, and what journal-line-check.ts checks a line against without loading zod.
 */
export type LineShape =
  | "string"
  | "number"
  | "boolean"
  | "unknown"
  | { readonly integer: { readonly min?: number; readonly above?: number } }
  | { readonly pattern: string }
  | { readonly oneOf: readonly (string | number | boolean)[] }
  | { readonly nullable: LineShape }
  | { readonly optional: LineShape }
  | { readonly array: LineShape }
  | { readonly object: Readonly<Record<string, LineShape>> }
  | { readonly record: LineShape }
  | { readonly union: readonly LineShape[] }
  | { readonly tag: string; readonly options: Readonly<Record<string, LineShape>> };
