/** The person's settings file, found under their home directory by the one home rule. */
import { homeDirectory } from "../../adapters/home/index.js";
import {
  loadSettingsFile,
  settingsPath,
  type LoadedSettings,
} from "../../adapters/settings/index.js";
import type { Host } from "../host.js";

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
