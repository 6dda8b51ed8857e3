import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  loadSettingsFile,
  SETTING_NAMES,
  SettingsFileError,
  settingsPath,
  settingsSchema,
} from "../../../src/adapters/settings/index.js";

let root: string;
let file: string;

beforeEach(async () => {
  root = await mkdtemp(join(await realpath(tmpdir()), "settings-"));
  file = join(root, "settings.json");
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const posixOnly = process.platform === "win32";

describe("settingsPath", () => {
  it.each([
    [{ XDG_CONFIG_HOME: "/xdg" }, "linux", "/xdg/agent-harness/settings.json"],
    [{}, "linux", "/home/p/.config/agent-harness/settings.json"],
    [{ XDG_CONFIG_HOME: " " }, "darwin", "/home/p/.config/agent-harness/settings.json"],
    [{ APPDATA: "/appdata" }, "win32", join("/appdata", "agent-harness", "settings.json")],
  ] as const)("%j on %s", (env, platform, expected) => {
    expect(settingsPath({ env, platform, homeDirectory: "/home/p" })).toBe(expected);
  });
});

describe("loadSettingsFile", () => {
  it("no file is no settings", () => {
    expect(loadSettingsFile(file)).toEqual({ path: file, values: {}, missing: true });
  });

  it("an empty object is a file with no settings in it", async () => {
    await writeFile(file, "{}");
    expect(loadSettingsFile(file)).toEqual({ path: file, values: {} });
  });

  it("reads every documented field", async () => {
    const values = {
      model: "qwen",
      baseURL: "http://127.0.0.1:11434/v1",
      chapter: 2,
      sandbox: "off",
      network: true,
      language: "zh",
      contextWindow: 32768,
      requestTimeout: 600,
      retries: 3,
      commandTimeout: 900,
    };
    await writeFile(file, JSON.stringify(values));
    expect(loadSettingsFile(file)).toEqual({ path: file, values });
  });

  it.each([
    ["{ broken", "not valid JSON"],
    ["[]", "must be a JSON object of settings"],
    ['{"chapter": 5}', "field chapter:"],
    ['{"sandbox": "maybe"}', "field sandbox:"],
    ['{"baseURL": "file:///etc/passwd"}', "field baseURL:"],
    ['{"requestTimeout": 0.5}', "field requestTimeout:"],
    ['{"requestTimeout": 100000}', "field requestTimeout:"],
    ['{"retries": -1}', "field retries:"],
    ['{"retries": 11}', "field retries:"],
    ['{"retries": 1.5}', "field retries:"],
    ['{"retries": "2"}', "field retries:"],
    ['{"commandTimeout": 0}', "field commandTimeout:"],
    ['{"commandTimeout": 86401}', "field commandTimeout:"],
    ['{"commandTimeout": 1.5}', "field commandTimeout:"],
    ['{"commandTimeout": "600"}', "field commandTimeout:"],
    ['{"apiKey": "sk-123"}', "unknown field apiKey (known: model, baseURL"],
  ])("%s is an error naming the file and the field", async (text, message) => {
    await writeFile(file, text);
    expect(() => loadSettingsFile(file)).toThrow(`settings file ${file}: ${message}`);
  });

  it.each([
    [
      '{"apiKey": "sk-123"}',
      "unknown field apiKey (known: model, baseURL, chapter, profile, sandbox, network, language, contextWindow, requestTimeout, retries, commandTimeout, rules, mcpServers)",
    ],
    [
      '{"rules":[{"behavior":"allow","tool":"shell","command":"python3 -m unittest"}]}',
      "rules[0]: unknown field command (known: behavior, tool, argv, path)",
    ],
    [
      '{"rules":[{"behavior":"deny","tool":"shell","argv":["git","push"]},{"behavior":"allow","tool":"read_file","glob":"src/**"}]}',
      "rules[1]: unknown field glob (known: behavior, tool, argv, path)",
    ],
    [
      '{"mcpServers":{"docs":{"command":"docs-server","cwd":"/tmp"}}}',
      "mcpServers.docs: unknown field cwd (known: command, args, env, allow, timeout, url, headers)",
    ],
  ])("%s names where the unknown field is, and the fields known there", async (text, message) => {
    await writeFile(file, text);
    expect(() => loadSettingsFile(file)).toThrow(
      new SettingsFileError(`settings file ${file}: ${message}`),
    );
  });

  it.each([
    ['{"chapter": 5}', "field chapter: must be 1, 2, 3 or 4, got 5"],
    ['{"sandbox": "maybe"}', 'field sandbox: must be "auto", "required" or "off", got "maybe"'],
    ['{"language": "fr"}', 'field language: must be "en" or "zh", got "fr"'],
    ['{"baseURL": "file:///etc/passwd"}', "field baseURL: must be an http:// or https:// URL"],
    [
      '{"baseURL": "http://user:hunter2secret@127.0.0.1:8080/v1"}',
      "field baseURL: must not contain a user name or password",
    ],
    [
      '{"mcpServers":{"broken-server":{"command":"x"}}}',
      "field mcpServers.broken-server: a server's name is letters and digits, single _ between them",
    ],
    [
      '{"mcpServers":{"a_server_name_of_many_letters":{"command":"x"}}}',
      "field mcpServers.a_server_name_of_many_letters: a server's name is at most 24 characters",
    ],
  ])("%s says what the field takes, never a password", async (text, message) => {
    await writeFile(file, text);
    let thrown: unknown;
    try {
      loadSettingsFile(file);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toEqual(new SettingsFileError(`settings file ${file}: ${message}`));
  });

  it("a rule names argv or path; only an MCP tool may be named alone", async () => {
    const mcp = { behavior: "allow", tool: "mcp__notes__write_note" };
    await writeFile(file, JSON.stringify({ rules: [mcp] }));
    expect(loadSettingsFile(file).values.rules).toEqual([mcp]);
    for (const tool of ["shell", "write_file", "*", "mcp__notes", "mcp____x"]) {
      await writeFile(file, JSON.stringify({ rules: [{ behavior: "allow", tool }] }));
      expect(() => loadSettingsFile(file)).toThrow(
        "only an MCP tool (mcp__server__tool) may name neither",
      );
    }
  });

  it("a rule's path is kept as the workspace-relative paths it is matched against", async () => {
    const rule = (path: string) => ({ behavior: "deny", tool: "*", path });
    await writeFile(
      file,
      JSON.stringify({ rules: ["./secrets/", "secrets//key.txt", ".env-prod"].map(rule) }),
    );
    expect(loadSettingsFile(file).values.rules).toEqual(
      ["secrets", "secrets/key.txt", ".env-prod"].map(rule),
    );
    for (const [path, said] of [
      ["/etc/passwd", "a rule's path is workspace-relative, not absolute"],
      ["secrets/../src", "a rule's path has no . or .. in it"],
      ["./", "a rule's path names something in the workspace (`**` for all of it)"],
    ] as const) {
      await writeFile(file, JSON.stringify({ rules: [rule(path)] }));
      expect(() => loadSettingsFile(file)).toThrow(said);
    }
  });

  it.skipIf(posixOnly)("a symbolic link is refused, naming the file", async () => {
    const target = join(root, "real.json");
    await writeFile(target, '{"model":"x"}');
    await symlink(target, file);
    expect(() => loadSettingsFile(file)).toThrow(
      new RegExp(`^settings file ${file}: .*symbolic link`),
    );
  });

  it.skipIf(posixOnly)("a FIFO is refused without waiting on it", () => {
    execFileSync("mkfifo", [file]);
    expect(() => loadSettingsFile(file)).toThrow(
      new RegExp(`^settings file ${file}: .*regular file`),
    );
  });

  it("a huge file is refused", async () => {
    await writeFile(file, `{"model":"${"x".repeat(100 * 1024)}"}`);
    expect(() => loadSettingsFile(file)).toThrow(`settings file ${file}: `);
  });

  it("a directory is refused", async () => {
    await mkdir(file);
    expect(() => loadSettingsFile(file)).toThrow(`settings file ${file}: `);
  });
});

describe("SETTING_NAMES", () => {
  it("names the schema's fields in its order: the list is written out so no schema is built at start", () => {
    expect([...SETTING_NAMES]).toEqual(Object.keys(settingsSchema().shape));
  });
});
