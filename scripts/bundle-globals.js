// Injected by scripts/bundle.js in place of two globals inside the bundle; either one's first use
// loads Node's bundled undici (~30 ms). Requests go through node:http (node-http-fetch.ts).
export { LiteHeaders as Headers } from "../src/adapters/model/node-http-fetch.ts";

/** The SDK only asks whether a request body is FormData; the agent never uploads, so none is. */
// eslint-disable-next-line @typescript-eslint/no-extraneous-class -- a type no value belongs to
export class FormData {}
