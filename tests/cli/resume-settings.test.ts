import { describe, expect, it } from "vitest";
import { keepRunSettings, sandboxSource } from "../../src/cli/settings/resume-settings.js";

const RUN = "20261201T010000Z-0a0b0c0d";
const MINUTES_2 = 120_000;
const DEFAULTS = { sandbox: "auto", network: false, commandTimeoutMs: MINUTES_2 } as const;
const NOTHING_GIVEN = { sandbox: undefined, network: false, commandTimeout: false } as const;

describe("keepRunSettings: resume goes on where the run started", () => {
  it.each([
    [
      "required, nothing given",
      { sandbox: "required", network: false },
      DEFAULTS,
      NOTHING_GIVEN,
      { sandbox: "required", network: false, commandTimeoutMs: MINUTES_2 },
    ],
    [
      "off, nothing given",
      { sandbox: "off", network: false },
      DEFAULTS,
      NOTHING_GIVEN,
      { sandbox: "off", network: false, commandTimeoutMs: MINUTES_2 },
    ],
    [
      "with network, nothing given",
      { sandbox: "auto", network: true },
      DEFAULTS,
      NOTHING_GIVEN,
      { sandbox: "auto", network: true, commandTimeoutMs: MINUTES_2 },
    ],
    [
      "the same sandbox given",
      { sandbox: "required", network: false },
      { sandbox: "required", network: false, commandTimeoutMs: MINUTES_2 },
      { sandbox: "--sandbox", network: false, commandTimeout: false },
      { sandbox: "required", network: false, commandTimeoutMs: MINUTES_2 },
    ],
    [
      "the same --network given",
      { sandbox: "auto", network: true },
      { sandbox: "auto", network: true, commandTimeoutMs: MINUTES_2 },
      { sandbox: undefined, network: true, commandTimeout: false },
      { sandbox: "auto", network: true, commandTimeoutMs: MINUTES_2 },
    ],
    [
      "an old journal: the options as given",
      {},
      { sandbox: "off", network: true, commandTimeoutMs: MINUTES_2 },
      { sandbox: "--sandbox", network: true, commandTimeout: false },
      { sandbox: "off", network: true, commandTimeoutMs: MINUTES_2 },
    ],
    [
      "the run's command timeout, whatever the settings file gave",
      { sandbox: "auto", network: false, commandTimeoutMs: 600_000 },
      DEFAULTS,
      NOTHING_GIVEN,
      { sandbox: "auto", network: false, commandTimeoutMs: 600_000 },
    ],
    [
      "the same --command-timeout given",
      { sandbox: "auto", network: false, commandTimeoutMs: 600_000 },
      { sandbox: "auto", network: false, commandTimeoutMs: 600_000 },
      { sandbox: undefined, network: false, commandTimeout: true },
      { sandbox: "auto", network: false, commandTimeoutMs: 600_000 },
    ],
    [
      "an old journal with no command timeout: the one given now",
      { sandbox: "auto", network: false },
      { sandbox: "auto", network: false, commandTimeoutMs: 600_000 },
      { sandbox: undefined, network: false, commandTimeout: true },
      { sandbox: "auto", network: false, commandTimeoutMs: 600_000 },
    ],
  ] as const)("%s", (_name, recorded, options, given, expected) => {
    expect(keepRunSettings(RUN, recorded, options, given)).toEqual(expected);
  });

  it.each([
    [
      "--sandbox off for a run started with auto",
      { sandbox: "auto", network: false },
      { sandbox: "off", network: false, commandTimeoutMs: MINUTES_2 },
      { sandbox: "--sandbox", network: false, commandTimeout: false },
      `run ${RUN} was started with --sandbox auto, and resume keeps it: leave out --sandbox (or give --sandbox auto)`,
    ],
    [
      "AGENT_SANDBOX=auto for a run started with required",
      { sandbox: "required", network: false },
      { sandbox: "auto", network: false, commandTimeoutMs: MINUTES_2 },
      { sandbox: "AGENT_SANDBOX", network: false, commandTimeout: false },
      `run ${RUN} was started with --sandbox required, and resume keeps it: unset AGENT_SANDBOX (or set it to required)`,
    ],
    [
      "--network for a run started without",
      { sandbox: "auto", network: false },
      { sandbox: "auto", network: true, commandTimeoutMs: MINUTES_2 },
      { sandbox: undefined, network: true, commandTimeout: false },
      `run ${RUN} was started without --network, and resume keeps it: leave out --network`,
    ],
    [
      "a sandbox mode this agent does not know",
      { sandbox: "docker", network: false },
      DEFAULTS,
      NOTHING_GIVEN,
      `run ${RUN} was started with --sandbox "docker", which this agent does not know`,
    ],
    [
      "--command-timeout 600 for a run started with 120",
      { sandbox: "auto", network: false, commandTimeoutMs: MINUTES_2 },
      { sandbox: "auto", network: false, commandTimeoutMs: 600_000 },
      { sandbox: undefined, network: false, commandTimeout: true },
      `run ${RUN} was started with --command-timeout 120, and resume keeps it: leave out --command-timeout (or give --command-timeout 120)`,
    ],
    ...[0, -1000, 1500, 86_401_000, Number.MAX_SAFE_INTEGER].map(
      (ms) =>
        [
          `a journal's command timeout of ${String(ms)} ms`,
          { sandbox: "auto", network: false, commandTimeoutMs: ms },
          DEFAULTS,
          NOTHING_GIVEN,
          `run ${RUN}'s journal records a command timeout of ${String(ms)} ms, which no --command-timeout gives (whole seconds from 1 to 86400): the journal is damaged`,
        ] as const,
    ),
  ] as const)("refuses %s", (_name, recorded, options, given, message) => {
    expect(() => keepRunSettings(RUN, recorded, options, given)).toThrow(message);
  });
});

describe("sandboxSource", () => {
  it.each([
    [["run-id"], {}, undefined],
    [["--sandbox", "off"], { AGENT_SANDBOX: "required" }, "--sandbox"],
    [["--sandbox=off"], {}, "--sandbox"],
    [[], { AGENT_SANDBOX: "off" }, "AGENT_SANDBOX"],
    [[], { AGENT_SANDBOX: "  " }, undefined],
  ] as const)("%j with %j: %s", (args, env, expected) => {
    expect(sandboxSource(args, env)).toBe(expected);
  });
});
