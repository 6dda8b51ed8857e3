/**
 * The prompt's language when no locale variable is set: the system locale decides
 * (src/cli/terminal/locale.ts), this process's own, which follows LANG on Linux and the user's
 * setting on Windows. English on most machines; a machine set to Chinese answers "zh", and tests
 * that pass an empty environment expect what this machine says.
 */
export const SYSTEM_LANGUAGE: "en" | "zh" = Intl.DateTimeFormat()
  .resolvedOptions()
  .locale.toLowerCase()
  .startsWith("zh")
  ? "zh"
  : "en";
