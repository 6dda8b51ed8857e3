/** `--pass-env NAME` that will not reach commands is said once on stderr, with the reason. */
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { linesOf } from "./cli-process.js";

const e2e = useAgentFixture();

describe("--pass-env", () => {
  it("a credential-looking or unset name is named once as not passed; the run goes on", async () => {
    e2e.server.script(chatTextReply("Done."));
    const run = await e2e.agent(
      [
        "--pass-env",
        "MY_TOKEN",
        "--pass-env",
        "OPENAI_API_KEY",
        "--pass-env",
        "NOT_SET_HERE",
        "Hi",
      ],
      { MY_TOKEN: "t0k3n-value" },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("Done.\n");
    const notices = linesOf(run.stderr).filter((line) => line.includes("--pass-env"));
    expect(notices.map((line) => line.split(":").slice(0, 3).join(":"))).toEqual([
      "agent: warning: --pass-env MY_TOKEN is not passed",
      "agent: warning: --pass-env OPENAI_API_KEY is not passed",
      "agent: warning: --pass-env NOT_SET_HERE is not passed",
    ]);
    expect(notices[2]).toBe(
      "agent: warning: --pass-env NOT_SET_HERE is not passed: it is not set in this environment",
    );
  });

  it("a shell startup variable is named once as not passed, with why", async () => {
    e2e.server.script(chatTextReply("Done."));
    const run = await e2e.agent(["--pass-env", "BASH_ENV", "--pass-env", "BASH_ENV", "Hi"], {
      BASH_ENV: "/tmp/evil.sh",
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(linesOf(run.stderr).filter((line) => line.includes("--pass-env"))).toEqual([
      "agent: warning: --pass-env BASH_ENV is not passed: it configures the shell itself (a startup file, functions or options), which could run a file from the workspace before every command, and those never reach commands",
    ]);
  });
});
