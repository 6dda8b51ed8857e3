/** Precedence, one row per source: flag > environment > settings file > default. */
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/args.js";
import { withFileSettings } from "../../src/cli/settings-layers.js";

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
        lang: "en",
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
        lang: "en",
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
