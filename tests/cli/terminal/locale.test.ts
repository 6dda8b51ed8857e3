import { afterEach, describe, expect, it, vi } from "vitest";
import {
  intlDefaultLocale,
  languageFromLocale,
} from "../../../src/cli/terminal/approval/locale.js";

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

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("does not ask Intl (which loads ICU's locale data) when a locale variable is set", () => {
    const intl = vi.spyOn(Intl, "DateTimeFormat");
    expect(languageFromLocale({ LANG: "zh_CN.UTF-8" })).toBe("zh");
    expect(languageFromLocale({ LC_ALL: "C" })).toBe("en");
    expect(languageFromLocale({ LC_MESSAGES: "en_US" })).toBe("en");
    expect(intl).not.toHaveBeenCalled();
    expect(languageFromLocale({})).toMatch(/^(en|zh)$/);
    expect(intl).toHaveBeenCalledTimes(1);
  });

  it("reads the system locale from Intl, which follows LANG on Linux", () => {
    const locale = intlDefaultLocale();
    expect(locale).toBe(Intl.DateTimeFormat().resolvedOptions().locale);
    expect(locale).toMatch(/^[a-z]{2,3}(-|$)/i);
  });
});
