/** `agent approve` with a TTL it cannot use: the error says what a TTL looks like. */
import { describe, expect, it } from "vitest";
import { approveCommand } from "../../../src/cli/commands/approve.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";

const TTL = "--ttl takes a duration such as 90s, 15m or 2h, at most 24h";

describe("agent approve --ttl", () => {
  it.each([
    [
      ["req_1", "--ttl", "-5m"],
      `agent: Option '--ttl' argument is ambiguous: ${TTL} (see agent approve --help)\n`,
    ],
    [
      ["req_1", "--ttl"],
      `agent: Option '--ttl <value>' argument missing: ${TTL} (see agent approve --help)\n`,
    ],
    [
      ["req_1", "--ttl=-5m"],
      'agent: --ttl must be a duration such as 90s, 15m or 2h, at most 24h (got "-5m")\n',
    ],
  ])("%j is one line saying what a TTL is", async (args, message) => {
    const run = await runCapturedSubcommand(approveCommand, args, {
      home: "/nonexistent",
      cwd: "/",
    });
    expect(run).toEqual({ code: 2, out: "", err: message });
  });
});
