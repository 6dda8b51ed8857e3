import { describe, expect, it } from "vitest";
import { intlDefaultLocale, languageFromLocale } from "../../../src/cli/terminal/locale.js";

describe("languageFromLocale", () => {
  it.each([
    // Nothing set (Windows): the system locale decides.
    [{}, "zh-CN", "zh"],
    [{}, "zh-Hant-TW", "zh"],
    [{}, "en-US", "en"],
    [{}, "de-DE", "en"],
    [{ LANG: "", LC_ALL: " " }, "zh-CN", "zh"],
    // Any POSIX locale variable wins over the system locale, either way.
    [{ LANG: "en_US.UTF-8" }, "zh-CN", "en"],
    [{ LANG: "C.UTF-8" }, "zh-CN", "en"],
    [{ LANG: "zh_CN.UTF-8" }, "en-US", "zh"],
    [{ LC_MESSAGES: "zh_TW" }, "en-US", "zh"],
    [{ LC_ALL: "C", LANG: "zh_CN" }, "zh-CN", "en"],
    [{ LC_ALL: "zh_CN.UTF-8", LC_MESSAGES: "en_US" }, "en-US", "zh"],
    [{ LC_MESSAGES: "en_US", LANG: "zh_CN" }, "zh-CN", "en"],
  ] as const)("env %j with system locale %s gives %s", (env, systemLocale, language) => {
    expect(languageFromLocale(env, systemLocale)).toBe(language);
  });

  it("reads the system locale from Intl, which follows LANG on Linux", () => {
    const locale = intlDefaultLocale();
    expect(locale).toBe(Intl.DateTimeFormat().resolvedOptions().locale);
    expect(locale).toMatch(/^[a-z]{2,3}(-|$)/i);
  });
});
