import { describe, expect, it } from "vitest";
import { encodedForms } from "../../../src/adapters/shell/secret-forms.js";
import { knownSecrets } from "../../../src/adapters/shell/command-environment.js";

const SECRET = "sk-live-0123456789abcdef";

describe("a secret's encoded forms", () => {
  it("base64 at each of its three alignments, standard and URL-safe, is found in any text", () => {
    const forms = encodedForms(SECRET);
    for (const prefix of ["", "x", "xy", "OPENAI_API_KEY=", "k="]) {
      for (const suffix of ["", "\n", "!!"]) {
        const text = Buffer.from(`${prefix}${SECRET}${suffix}`);
        for (const encoded of [text.toString("base64"), text.toString("base64url")]) {
          expect(forms.some((form) => encoded.includes(form))).toBe(true);
        }
      }
    }
  });

  it("hex in either case", () => {
    const hex = Buffer.from(SECRET).toString("hex");
    expect(encodedForms(SECRET)).toEqual(expect.arrayContaining([hex, hex.toUpperCase()]));
  });

  it("knownSecrets lists the forms too, longest first", () => {
    const secrets = knownSecrets({ OPENAI_API_KEY: SECRET, PATH: "/usr/bin" });
    expect(secrets).toContain(SECRET);
    expect(secrets).toContain(Buffer.from(SECRET).toString("hex"));
    expect(secrets).toEqual([...secrets].sort((a, b) => b.length - a.length));
  });
});
