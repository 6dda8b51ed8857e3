/** `--pass-env NAME` that will not reach commands is said once, with the reason. */
import { describe, expect, it } from "vitest";
import { passEnvNotices } from "../../../src/adapters/shell/index.js";

const SECRET =
  "looks like a credential (its name has KEY, TOKEN, SECRET, PASSWORD, PASSWD or CREDENTIAL, or begins with OPENAI_), and those never reach commands";

describe("passEnvNotices", () => {
  it("names each dropped variable once, with why; a passed one is not mentioned", () => {
    const env = { MY_TOKEN: "t0k3n-value", OPENAI_API_KEY: "sk-x", DEBUG: "1" };
    expect(
      passEnvNotices(["MY_TOKEN", "OPENAI_API_KEY", "DEBUG", "NOT_SET", "MY_TOKEN"], env, "linux"),
    ).toEqual([
      `--pass-env MY_TOKEN is not passed: it ${SECRET}`,
      `--pass-env OPENAI_API_KEY is not passed: it ${SECRET}`,
      "--pass-env NOT_SET is not passed: it is not set in this environment",
    ]);
  });

  it("on Windows finds a variable whatever the case of its name", () => {
    expect(passEnvNotices(["debug"], { DEBUG: "1" }, "win32")).toEqual([]);
    expect(passEnvNotices(["debug"], { DEBUG: "1" }, "linux")).toEqual([
      "--pass-env debug is not passed: it is not set in this environment",
    ]);
  });
});
