/**
 * The person's settings file, found under their home directory by the one home rule, and the
 * model's defaults that `agent config` prints when nothing else sets a value.
 */
import { homeDirectory } from "../adapters/home/index.js";
import { loadSettingsFile, settingsPath, type LoadedSettings } from "../adapters/settings/index.js";
import type { Host } from "./host.js";

export {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MODEL,
  DEFAULT_TIMEOUT_MS,
} from "../adapters/model/index.js";
export {
  SETTING_NAMES,
  type FileSettings,
  type LoadedSettings,
  type SettingName,
} from "../adapters/settings/index.js";

/** The person's settings file, read (or found absent) now; a broken one throws, naming it. */
export function loadPersonSettings(host: Host): LoadedSettings {
  return loadSettingsFile(
    settingsPath({
      env: host.env,
      platform: host.platform,
      homeDirectory: homeDirectory(host.env),
    }),
  );
}
