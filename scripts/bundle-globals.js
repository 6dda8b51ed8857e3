// Injected by scripts/bundle.js in place of globals inside the bundle. The first use of `Headers`
// or `FormData` loads Node's bundled undici (~30 ms); requests go through node:http
// (node-http-fetch.ts).
export { LiteHeaders as Headers } from "../src/adapters/model/node-http-fetch.ts";

/** The SDK only asks whether a request body is FormData; the agent never uploads, so none is. */
// eslint-disable-next-line @typescript-eslint/no-extraneous-class -- a type no value belongs to
export class FormData {}

/**
 * Node's own class, at its first real use. Through `Reflect.get`: esbuild's `define` rewrites
 * `globalThis.ReadableStream` and `globalThis["ReadableStream"]` alike, and either would make the
 * stand-in call itself (tests/scripts/bundle-globals.test.ts).
 */
const nodeReadableStream = () =>
  /** @type {typeof ReadableStream} */ (Reflect.get(globalThis, "ReadableStream"));

/**
 * `globalThis.ReadableStream` inside the bundle. The SDK asks `body instanceof` it of every
 * request body, and the global's first read loads Node's web streams (~1 ms before the first
 * request). A plain object, an array, a typed array or a primitive is never a stream, so that
 * answer needs no class; anything else, and every construction (`new` returns Node's stream), goes to Node's.
 * @param {ConstructorParameters<typeof ReadableStream>} args
 */
export function ReadableStreamStandIn(...args) {
  return new (nodeReadableStream())(...args);
}

Object.defineProperty(ReadableStreamStandIn, Symbol.hasInstance, {
  /** @param {unknown} value */
  value: (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
    // A typed array or DataView: the request body as parts (RequestBodyParts) is one, and asked
    // of every request after the first; Node's class would then load in a run's first tool call.
    if (ArrayBuffer.isView(value)) return false;
    const prototype = Object.getPrototypeOf(value);
    if (prototype === Object.prototype || prototype === null) return false;
    return value instanceof nodeReadableStream();
  },
});
