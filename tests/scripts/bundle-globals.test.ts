import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The bundle's stand-in for `globalThis.ReadableStream`, built with the bundle's own `inject` and
 * `define`: the SDK's `instanceof` and `new` on it must behave as Node's class does, and a plain
 * object must be answered without it.
 */
type Probe = (value: unknown) => boolean;
interface Built {
  readonly isStream: Probe;
  readonly make: () => unknown;
  readonly real: () => typeof ReadableStream;
}

interface StandIns {
  readonly inject: readonly string[];
  readonly define: Readonly<Record<string, string>>;
}

let directory: string;
let built: Built;

beforeAll(async () => {
  // scripts/ is plain JavaScript, outside the type-checked sources: loaded by its URL.
  const bundleScript = new URL("../../scripts/bundle.js", import.meta.url).href;
  const { GLOBAL_STAND_INS } = (await import(bundleScript)) as { GLOBAL_STAND_INS: StandIns };
  directory = await mkdtemp(join(tmpdir(), "bundle-globals-"));
  const entry = join(directory, "entry.js");
  await writeFile(
    entry,
    [
      "export const isStream = (value) => value instanceof globalThis.ReadableStream;",
      "export const make = () => new globalThis.ReadableStream({ start(c) { c.close(); } });",
      // A function: read at load, the global would load Node's web streams in every process
      // that requires this bundle, the fresh one below included.
      'export const real = () => Reflect.get(globalThis, "ReadableStream");',
    ].join("\n"),
  );
  const out = join(directory, "out.cjs");
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile: out,
    logLevel: "silent",
    inject: [...GLOBAL_STAND_INS.inject],
    define: { ...GLOBAL_STAND_INS.define },
  });
  built = createRequire(import.meta.url)(out) as Built;
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("the bundle's ReadableStream stand-in", () => {
  it("answers for plain objects, arrays and primitives: none is a stream", () => {
    for (const value of [{}, Object.create(null), [], "text", 1, null, undefined]) {
      expect(built.isStream(value)).toBe(false);
    }
  });

  it("answers for typed arrays and views without loading Node's web streams", () => {
    // In a fresh node: the global is still node's lazy getter until something reads it.
    const script = [
      `const built = require(${JSON.stringify(join(directory, "out.cjs"))});`,
      "class Parts extends Uint8Array {}",
      "const answers = [new Parts(0), new Uint8Array(2), new DataView(new ArrayBuffer(1))].map(built.isStream);",
      'const lazy = typeof Object.getOwnPropertyDescriptor(globalThis, "ReadableStream").get;',
      "process.stdout.write(JSON.stringify({ answers, lazy }));",
    ].join("\n");
    const output = execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(JSON.parse(output)).toEqual({ answers: [false, false, false], lazy: "function" });
  });

  it("asks Node's own class for anything else, without calling itself", () => {
    expect(built.isStream(new Uint8Array(1))).toBe(false);
    expect(built.isStream(new URLSearchParams("a=1"))).toBe(false);
    expect(built.isStream(new (built.real())())).toBe(true);
  });

  it("builds Node's own stream with new", () => {
    const stream = built.make();
    expect(stream).toBeInstanceOf(built.real());
    expect(built.isStream(stream)).toBe(true);
  });
});
