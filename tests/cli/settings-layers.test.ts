/** Precedence, one row per source: flag > environment > settings file > default. */
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/args.js";
import { withFileSettings } from "../../src/cli/settings/settings-layers.js";
import { SYSTEM_LANGUAGE } from "../support/system-language.js";

function effective(argv: string[], env: Record<string, string>, file: object) {
  const layered = withFileSettings([...argv, "--prompt", "task"], env, file);
  const options = parseCliArgs(layered.argv, layered.env, "/work");
  return {
    model: options.model ?? layered.env.OPENAI_MODEL,
    baseURL: layered.env.OPENAI_BASE_URL,
    chapter: options.profile.chapter,
    sandbox: options.sandbox,
    network: options.network,
    lang: options.lang,
  };
}

describe("settings precedence", () => {
  it.each([
    [
      "default",
      [],
      {},
      {},
      {
        model: undefined,
        baseURL: undefined,
        chapter: 3,
        sandbox: "auto",
        network: false,
        lang: SYSTEM_LANGUAGE,
      },
    ],
    [
      "file",
      [],
      {},
      {
        model: "f",
        baseURL: "http://f/v1",
        chapter: 2,
        sandbox: "off",
        network: true,
        language: "zh",
      },
      { model: "f", baseURL: "http://f/v1", chapter: 2, sandbox: "off", network: true, lang: "zh" },
    ],
    [
      "environment over file",
      [],
      { OPENAI_MODEL: "e", OPENAI_BASE_URL: "http://e/v1", AGENT_SANDBOX: "required" },
      { model: "f", baseURL: "http://f/v1", sandbox: "off" },
      {
        model: "e",
        baseURL: "http://e/v1",
        chapter: 3,
        sandbox: "required",
        network: false,
        lang: SYSTEM_LANGUAGE,
      },
    ],
    [
      "flag over environment and file",
      ["--model", "g", "--chapter", "4", "--sandbox", "auto", "--lang", "en"],
      { OPENAI_MODEL: "e", AGENT_SANDBOX: "required" },
      { model: "f", chapter: 2, sandbox: "off", language: "zh" },
      { model: "g", baseURL: undefined, chapter: 4, sandbox: "auto", network: false, lang: "en" },
    ],
    [
      "file language over the locale's guess",
      [],
      { LANG: "en_US.UTF-8" },
      { language: "zh" },
      {
        model: undefined,
        baseURL: undefined,
        chapter: 3,
        sandbox: "auto",
        network: false,
        lang: "zh",
      },
    ],
  ])("%s", (_name, argv, env, file, expected) => {
    expect(effective(argv, env, file)).toEqual(expected);
  });
});

describe("the model connection's precedence", () => {
  function connection(argv: string[], env: Record<string, string>, file: object) {
    const layered = withFileSettings([...argv, "--prompt", "task"], env, file);
    const options = parseCliArgs(layered.argv, layered.env, "/work");
    return { requestTimeoutMs: options.requestTimeoutMs, retries: options.retries };
  }

  it.each([
    ["default: ten minutes, for a local model on a CPU", [], {}, {}, 600_000, 2],
    ["file", [], {}, { requestTimeout: 120, retries: 0 }, 120_000, 0],
    [
      "environment over file",
      [],
      { AGENT_REQUEST_TIMEOUT: "30", AGENT_RETRIES: "5" },
      { requestTimeout: 120, retries: 0 },
      30_000,
      5,
    ],
    [
      "a blank variable is unset",
      [],
      { AGENT_REQUEST_TIMEOUT: " " },
      { requestTimeout: 1.5 },
      1500,
      2,
    ],
    [
      "flag over environment and file",
      ["--request-timeout", "45", "--retries", "1"],
      { AGENT_REQUEST_TIMEOUT: "30", AGENT_RETRIES: "5" },
      { requestTimeout: 120, retries: 7 },
      45_000,
      1,
    ],
    ["flag over file", ["--retries", "4"], {}, { retries: 7 }, 600_000, 4],
  ])("%s", (_name, argv, env, file, requestTimeoutMs, retries) => {
    expect(connection(argv, env, file)).toEqual({ requestTimeoutMs, retries });
  });

  it.each([
    [
      ["--request-timeout", "0"],
      {},
      '--request-timeout must be a number of seconds from 1 to 86400 (got "0")',
    ],
    [
      ["--request-timeout", "1e3"],
      {},
      '--request-timeout must be a number of seconds from 1 to 86400 (got "1e3")',
    ],
    [
      [],
      { AGENT_REQUEST_TIMEOUT: "forever" },
      'AGENT_REQUEST_TIMEOUT must be a number of seconds from 1 to 86400 (got "forever")',
    ],
    [["--retries", "11"], {}, '--retries must be a whole number from 0 to 10 (got "11")'],
    [[], { AGENT_RETRIES: "-1" }, 'AGENT_RETRIES must be a whole number from 0 to 10 (got "-1")'],
  ])("refuses %j %j", (argv, env, message) => {
    expect(() => connection(argv, env, {})).toThrow(message);
  });
});

describe("the command timeout's layers: flag > environment > settings file > default", () => {
  const timeoutOf = (argv: string[], file: object, env: Record<string, string> = {}): number => {
    const layered = withFileSettings([...argv, "--prompt", "task"], env, file);
    return parseCliArgs(layered.argv, layered.env, "/work").commandTimeoutMs;
  };
  const ENV_600 = { AGENT_COMMAND_TIMEOUT: "600" };

  it.each([
    ["default: two minutes", [], {}, {}, 120_000],
    ["file", [], { commandTimeout: 900 }, {}, 900_000],
    ["flag over file", ["--command-timeout", "30"], { commandTimeout: 900 }, {}, 30_000],
    ["flag over file, --flag=value", ["--command-timeout=45"], { commandTimeout: 900 }, {}, 45_000],
    ["flag, no file", ["--command-timeout", "7200"], {}, {}, 7_200_000],
    ["environment", [], {}, ENV_600, 600_000],
    ["environment over file", [], { commandTimeout: 900 }, ENV_600, 600_000],
    ["flag over environment", ["--command-timeout", "30"], {}, ENV_600, 30_000],
    [
      "a blank variable is unset",
      [],
      { commandTimeout: 900 },
      { AGENT_COMMAND_TIMEOUT: " " },
      900_000,
    ],
    ["spaces around the variable's number", [], {}, { AGENT_COMMAND_TIMEOUT: " 60 " }, 60_000],
  ])("%s", (_name, argv, file, env, expected) => {
    expect(timeoutOf(argv, file, env)).toBe(expected);
  });

  it("a bad flag is refused even when the file's value is good", () => {
    expect(() => timeoutOf(["--command-timeout", "90s"], { commandTimeout: 900 })).toThrow(
      '--command-timeout must be a whole number of seconds from 1 to 86400 (got "90s")',
    );
  });

  it("a bad variable is refused by its own name, and a flag given passes over it", () => {
    const bad = { AGENT_COMMAND_TIMEOUT: "2m" };
    expect(() => timeoutOf([], {}, bad)).toThrow(
      'AGENT_COMMAND_TIMEOUT must be a whole number of seconds from 1 to 86400 (got "2m")',
    );
    expect(timeoutOf(["--command-timeout", "5"], {}, bad)).toBe(5_000);
  });
});

describe("the context window's layers", () => {
  const windowOf = (argv: string[], env: Record<string, string>, file: object): unknown => {
    const layered = withFileSettings([...argv, "--prompt", "task"], env, file);
    return parseCliArgs(layered.argv, layered.env, "/work").contextWindow;
  };

  it.each([
    ["default: known from the model's name", [], {}, {}, undefined],
    ["file", [], {}, { contextWindow: 50_000 }, 50_000],
    [
      "environment over file",
      [],
      { AGENT_CONTEXT_WINDOW: "40000" },
      { contextWindow: 50_000 },
      40_000,
    ],
    [
      "flag over environment and file",
      ["--context-window", "30000"],
      { AGENT_CONTEXT_WINDOW: "40000" },
      { contextWindow: 50_000 },
      30_000,
    ],
  ])("%s", (_name, argv, env, file, expected) => {
    expect(windowOf(argv, env, file)).toBe(expected);
  });
});
