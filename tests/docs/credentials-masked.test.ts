/**
 * docs/sandbox.md's "Credentials masked" is where a person looks up whether a file of theirs is
 * hidden from commands, and `--sandbox-unmask` points there: its list must be the code's list,
 * no more (a promise the sandbox does not keep) and no less (a mask nobody can find to un-mask).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CREDENTIAL_PATHS } from "../../src/adapters/sandbox/credential-paths.js";

const page = readFileSync(fileURLToPath(new URL("../../docs/sandbox.md", import.meta.url)), "utf8");

/** The section's text up to the paragraph on the state directory and un-masking. */
function maskedList(): string {
  const start = page.indexOf("### Credentials masked\n");
  const end = page.indexOf("The harness's state directory is hidden the same way", start);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return page.slice(start, end);
}

describe("docs/sandbox.md's masked credentials", () => {
  it("lists exactly the paths the sandbox masks", () => {
    const listed = [...maskedList().matchAll(/`~\/([^`]+)`/g)].map((match) => match[1]);
    expect([...listed].sort()).toEqual([...CREDENTIAL_PATHS].sort());
  });
});
