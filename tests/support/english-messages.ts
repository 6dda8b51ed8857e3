/**
 * `env` with its programs' messages in English: LC_ALL=C outranks LANG and every LC_*, and LANGUAGE
 * goes (gettext reads it before the locale). Tests that compare a real tool's stderr with exact text
 * (`touch: cannot touch …: Read-only file system`) run it with this, so the answer is the same under
 * a developer's tr_TR.UTF-8 or zh_CN.UTF-8 as under C. The locale itself is not what they test.
 */
export function withEnglishMessages(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const english: NodeJS.ProcessEnv = { ...env, LC_ALL: "C" };
  delete english.LANGUAGE;
  return english;
}
