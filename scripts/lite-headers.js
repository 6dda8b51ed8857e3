// Injected by scripts/bundle.js in place of the global `Headers` inside the bundle: see there.
export { LiteHeaders as Headers } from "../src/adapters/model/node-http-fetch.ts";
