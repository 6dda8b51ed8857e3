/** The person's own settings file, outside every workspace (settings-file.ts). */
export {
  loadSettingsFile,
  SETTING_NAMES,
  SettingsFileError,
  settingsSchema,
  settingsPath,
  type FileSettings,
  type LoadedSettings,
  type SettingName,
} from "./settings-file.js";
export {
  MCP_SERVER_NAME,
  type McpServerSetting,
  type McpServersSetting,
} from "./mcp-servers-setting.js";
