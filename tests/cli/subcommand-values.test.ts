import { describe, expect, it } from "vitest";
import { parseTtl } from "../../src/cli/subcommand-values.js";
import { CliConfigError } from "../../src/cli/config-error.js";

describe("parseTtl", () => {
  it.each([
    ["90s", 90_000],
    ["15m", 900_000],
    ["2h", 7_200_000],
    ["24h", 86_400_000],
  ])("%s → %i ms", (raw, ms) => {
    expect(parseTtl(raw)).toBe(ms);
  });

  it.each(["0m", "15", "1d", "25h", "-1m", "1.5h", " 15m", ""])("%j is refused", (raw) => {
    expect(() => parseTtl(raw)).toThrow(
      new CliConfigError(
        `--ttl must be a duration such as 90s, 15m or 2h, at most 24h (got ${JSON.stringify(raw)})`,
      ),
    );
  });
});
