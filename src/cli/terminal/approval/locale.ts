/**
 * The approval prompt's language. On POSIX the locale variables say it (LC_ALL, then LC_MESSAGES,
 * then LANG, the first one set and non-empty). Where none is set — the normal case on Windows —
 * the system locale decides: Node's Intl default locale follows the user's locale there (and on
 * Linux with nothing set it is en-US), so a Chinese Windows gets the Chinese prompt. Intl is asked
 * only then: its first use loads ICU's locale data, about 15–25 ms of every start.
 */
export type PromptLanguage = "en" | "zh";

export function languageFromLocale(
  env: Readonly<Record<string, string | undefined>>,
  systemLocale?: string,
): PromptLanguage {
  const locale = nonEmpty(env.LC_ALL) ?? nonEmpty(env.LC_MESSAGES) ?? nonEmpty(env.LANG);
  // Not a default parameter: that would be evaluated, and ICU loaded, even when LANG answers.
  return isChinese(locale ?? systemLocale ?? intlDefaultLocale()) ? "zh" : "en";
}

/** A BCP 47 tag (`zh-CN`, `zh-Hans-SG`) or a POSIX locale (`zh_CN.UTF-8`, `ZH_TW`). */
function isChinese(locale: string): boolean {
  return locale.toLowerCase().startsWith("zh");
}

export function intlDefaultLocale(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().locale;
  } catch {
    // A Node built without full ICU data still answers; this is for anything stranger.
    return "en";
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
