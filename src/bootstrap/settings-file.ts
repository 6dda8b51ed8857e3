/**
 * The person's settings file and the model's defaults, for `agent config` and the settings layer:
 * the CLI reaches adapters only through bootstrap.
 */
export {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MODEL,
  DEFAULT_TIMEOUT_MS,
} from "../adapters/model/index.js";
export {
  loadSettingsFile,
  SETTING_NAMES,
  settingsPath,
  type FileSettings,
  type LoadedSettings,
  type SettingName,
} from "../adapters/settings/index.js";
