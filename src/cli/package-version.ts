/** `agent --version`: the version in our own package.json. */
import { readFileSync } from "node:fs";

const PACKAGE_NAME = "agent-harness";

/**
 * The version in our package.json: the nearest one above this file, which is src/cli/main.ts,
 * dist/cli/main.js or the bundle dist/agent.cjs, each at a different depth.
 */
export function packageVersion(): string {
  for (let up = 1; up <= 3; up += 1) {
    let raw: unknown;
    try {
      const url = new URL(`${"../".repeat(up)}package.json`, import.meta.url);
      raw = JSON.parse(readFileSync(url, "utf8"));
    } catch {
      continue;
    }
    if (
      typeof raw === "object" &&
      raw !== null &&
      "name" in raw &&
      raw.name === PACKAGE_NAME &&
      "version" in raw &&
      typeof raw.version === "string"
    ) {
      return raw.version;
    }
  }
  return "unknown";
}
