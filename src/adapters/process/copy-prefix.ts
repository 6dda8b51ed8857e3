/**
 * Copies `source[0, length)` into `target` at `at` without a view of that part: on Node 20 a
 * `subarray`, or a `Buffer#copy` that stops short of the end, builds a ~100-byte object, and one
 * per read of a gigabyte was enough garbage to grow V8's young generation. `fill`
 * repeats its value over the range in native code, so a value at least as long as the range is
 * copied from its start and nothing is allocated. The caller makes sure `target` has the room.
 */
export function copyPrefix(target: Buffer, at: number, source: Uint8Array, length: number): void {
  if (length === source.length) target.set(source, at);
  else if (length > 0) target.fill(source, at, at + length);
}
