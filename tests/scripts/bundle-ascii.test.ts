import { describe, expect, it } from "vitest";

/**
 * The built bundle must be ASCII: V8 keeps its source for the whole run, one byte a character
 * only when no character needs more (scripts/bundle.js, `assertAscii`).
 */
type AssertAscii = (text: string, name: string) => void;

// scripts/ is plain JavaScript, outside the type-checked sources: loaded by its URL.
const bundleScript = new URL("../../scripts/bundle.js", import.meta.url).href;
const { assertAscii } = (await import(bundleScript)) as { assertAscii: AssertAscii };

describe("assertAscii", () => {
  it("passes ASCII, control characters and escapes included", () => {
    expect(() => {
      assertAscii('var a=/^(\\u2714 )?\\d+/u;\n\tb="\\x1b";\r', "dist/agent-bundle.cjs");
    }).not.toThrow();
  });

  it("names the first character beyond ASCII and where it is", () => {
    expect(() => {
      assertAscii("var ok=1;var a=/^(✔ |✘ )?\\d+ tests?/u;", "dist/agent-bundle.cjs");
    }).toThrow(
      'dist/agent-bundle.cjs would hold U+2714 near "var ok=1;var a=/^(✔ |✘ )?\\\\d+": escape ' +
        "it in the source (\\u…), so V8 keeps the bundle's source one byte a character",
    );
  });

  it("names a character outside the Basic Multilingual Plane by its code point", () => {
    expect(() => {
      assertAscii("x='😀'", "b");
    }).toThrow("b would hold U+1F600 near \"x='😀'\": escape");
  });
});
