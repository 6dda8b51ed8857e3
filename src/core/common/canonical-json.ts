/**
 * JSON with object keys sorted by UTF-16 code unit at every depth (the order of RFC 8785), so equal
 * values always give equal text, and equal hashes, whatever order a model or provider emitted the
 * keys in. The text is assembled here rather than by `JSON.stringify` of a sorted object, because
 * objects always list integer-like keys ("9", "10") first, in numeric order.
 *
 * The value is first taken through JSON itself, so `toJSON` (a Date), dropped `undefined` members and
 * `NaN` → `null` read exactly as `JSON.stringify` would write them. A value JSON cannot hold
 * (undefined, a function, a cycle, a bigint) throws: a hash of nothing must never stand in for
 * arguments.
 */
export function canonicalJson(value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError("Value has no JSON representation");
  return write(JSON.parse(text));
}

function write(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(write).join(",")}]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort(byCodeUnit)
    .map((key) => `${JSON.stringify(key)}:${write(record[key])}`);
  return `{${members.join(",")}}`;
}

function byCodeUnit(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
