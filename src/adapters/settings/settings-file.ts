/**
 * The person's settings file: `$XDG_CONFIG_HOME/agent-harness/settings.json` (else
 * `~/.config/…`; `%APPDATA%\agent-harness\settings.json` on Windows). Only this one file: a
 * project-level file would be one the model can write. It is read like every harness file (never
 * through a link, never a FIFO, a regular file of bounded size), and a file that is not exactly
 * what is documented is a configuration error that names the file and the field.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { builtOnce } from "../../core/common/built-once.js";
import { errorCode, readHarnessInput } from "../filesystem/index.js";
import { buildMcpServersSchema, type McpServersSetting } from "./mcp-servers-setting.js";
import { describeSettingsIssue } from "./settings-issue.js";

export class SettingsFileError extends Error {
  override readonly name = "SettingsFileError";
}

const MAX_SETTINGS_BYTES = 64 * 1024;
/** An MCP server's tool as the registry names it (adapters/mcp): a rule may name it alone. */
const MCP_TOOL_NAME = /^mcp__[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*__[A-Za-z0-9_]+$/u;

function buildSettingsSchema() {
  return z
    .strictObject({
      model: z.string().trim().min(1),
      baseURL: z
        .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
        .refine(hasNoCredentials, "must not contain a user name or password"),
      chapter: z.literal([1, 2, 3, 4]),
      /** A profile beyond the tutorial's chapters (`--profile`); it beats the file's `chapter`. */
      profile: z.literal(["daily"]),
      sandbox: z.enum(["auto", "required", "off"]),
      network: z.boolean(),
      language: z.enum(["en", "zh"]),
      /** Tokens the model's context holds. */
      contextWindow: z.number().int().positive(),
      /** Seconds one model request may take (the bounds of `--request-timeout`). */
      requestTimeout: z.number().min(1).max(86_400),
      /** How often a failed model request is sent again (the bounds of `--retries`). */
      retries: z.number().int().min(0).max(10),
      /** Whole seconds one shell or run_command call may run (the bounds of `--command-timeout`). */
      commandTimeout: z.number().int().min(1).max(86_400),
      /**
       * The person's own rules (profiles with personal rules): a tool and either the words a
       * command starts with or a workspace-relative path glob; an MCP server's tool
       * (`mcp__server__tool`) by its name alone. Only from this file.
       */
      rules: z
        .array(
          z
            .strictObject({
              behavior: z.enum(["allow", "ask", "deny"]),
              tool: z.string().trim().min(1),
              argv: z.array(z.string().min(1)).min(1).optional(),
              // As the workspace-relative paths it is matched against: `./secrets/` is `secrets`.
              path: z
                .string()
                .trim()
                .min(1)
                .transform((path) => path.replaceAll("\\", "/").replace(/\/{2,}/gu, "/"))
                .transform((path) => path.replace(/^(?:\.\/)+/u, "").replace(/(?<=.)\/$/u, ""))
                .refine(
                  (path) => path !== "" && path !== ".",
                  "a rule's path names something in the workspace (`**` for all of it)",
                )
                .refine(
                  (path) => !path.startsWith("/") && !/^[A-Za-z]:/u.test(path),
                  "a rule's path is workspace-relative, not absolute",
                )
                .refine(
                  (path) => path.split("/").every((name) => name !== ".." && name !== "."),
                  "a rule's path has no . or .. in it",
                )
                .optional(),
            })
            .refine(
              (rule) =>
                (rule.argv === undefined) !== (rule.path === undefined) ||
                (rule.argv === undefined && MCP_TOOL_NAME.test(rule.tool)),
              "a rule names either argv (a command's first words) or path (a glob), not both; only an MCP tool (mcp__server__tool) may name neither",
            ),
        )
        .max(500),
    })
    .partial();
}

/** Built when a settings file is read: without one, a run loads no zod before its request. */
export const settingsSchema = builtOnce(buildSettingsSchema);

/** The whole file: the settings above, and the MCP servers, which are no flag's or variable's. */
const fileSchema = builtOnce(() =>
  buildSettingsSchema().extend({ mcpServers: buildMcpServersSchema() }).partial(),
);

export type FileSettings = z.infer<ReturnType<typeof buildSettingsSchema>>;
export type SettingName = keyof FileSettings;
/** The schema's fields in its order (tests/adapters/settings/settings-file.test.ts checks). */
export const SETTING_NAMES: readonly SettingName[] = [
  "model",
  "baseURL",
  "chapter",
  "profile",
  "sandbox",
  "network",
  "language",
  "contextWindow",
  "requestTimeout",
  "retries",
  "commandTimeout",
  "rules",
];

export interface SettingsPathInputs {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  readonly homeDirectory: string;
}

export function settingsPath({ env, platform, homeDirectory }: SettingsPathInputs): string {
  const base =
    platform === "win32"
      ? (nonBlank(env.APPDATA) ?? join(homeDirectory, "AppData", "Roaming"))
      : (nonBlank(env.XDG_CONFIG_HOME) ?? join(homeDirectory, ".config"));
  return join(base, "agent-harness", "settings.json");
}

export interface LoadedSettings {
  readonly path: string;
  /** Empty when there is no file. */
  readonly values: FileSettings;
  /** Set when there is no file at `path` (an empty one has neither values nor this). */
  readonly missing?: true;
  /** The file's `mcpServers`, when it has any (mcp-servers-setting.ts). */
  readonly mcpServers?: McpServersSetting;
}

/** Reads and checks the file; no file is no settings. Throws `SettingsFileError` naming the file. */
export function loadSettingsFile(path: string): LoadedSettings {
  try {
    lstatSync(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { path, values: {}, missing: true };
    throw new SettingsFileError(
      `settings file ${path}: cannot be read (${errorCode(error) ?? "error"})`,
    );
  }
  let text: string;
  try {
    text = readHarnessInput(path, MAX_SETTINGS_BYTES);
  } catch (error) {
    throw new SettingsFileError(
      `settings file ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SettingsFileError(
      `settings file ${path}: not valid JSON (${error instanceof Error ? error.message : "parse error"})`,
    );
  }
  // The input in each issue, so that a wrong choice can be quoted back.
  const parsed = fileSchema().safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    throw new SettingsFileError(
      `settings file ${path}: ${describeSettingsIssue(parsed.error.issues[0], fileSchema())}`,
    );
  }
  const { mcpServers, ...values } = parsed.data;
  return { path, values, ...(mcpServers === undefined ? {} : { mcpServers }) };
}

/** fetch refuses a URL with credentials, and every place that shows the URL would show them. */
function hasNoCredentials(value: string): boolean {
  const url = new URL(value);
  return url.username === "" && url.password === "";
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
