import { describe, expect, it } from "vitest";
import {
  commandEnvironmentMayHold,
  buildCommandEnvironment,
  looksLikeSecret,
} from "../../../src/adapters/shell/command-environment.js";

const HOST = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/ada",
  USER: "ada",
  LOGNAME: "ada",
  SHELL: "/bin/bash",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  LC_CTYPE: "C.UTF-8",
  TERM: "xterm",
  TZ: "UTC",
  TMPDIR: "/tmp",
  DOTNET_ROOT: "/opt/dotnet",
  DOTNET_STARTUP_HOOKS: "/tmp/hook.dll",
  OPENAI_API_KEY: "sk-live",
  OPENAI_BASE_URL: "http://127.0.0.1:1",
  GITHUB_TOKEN: "ghp_x",
  AWS_SECRET_ACCESS_KEY: "aws",
  DB_PASSWORD: "pw",
  GOOGLE_APPLICATION_CREDENTIALS: "/creds.json",
  BASH_ENV: "/home/ada/evil.sh",
  LD_PRELOAD: "/tmp/x.so",
  NODE_OPTIONS: "--require /tmp/x.js",
  MY_SETTING: "on",
  UNSET_ONE: undefined,
};

describe("buildCommandEnvironment", () => {
  it("keeps only the allowlist on POSIX", () => {
    expect(buildCommandEnvironment(HOST, { passEnv: [], platform: "linux" })).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/home/ada",
      USER: "ada",
      LOGNAME: "ada",
      SHELL: "/bin/bash",
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
      LC_CTYPE: "C.UTF-8",
      TERM: "xterm",
      TZ: "UTC",
      TMPDIR: "/tmp",
      DOTNET_ROOT: "/opt/dotnet",
    });
  });

  it("adds names passed with --pass-env", () => {
    const environment = buildCommandEnvironment(HOST, {
      passEnv: ["MY_SETTING"],
      platform: "linux",
    });
    expect(environment.MY_SETTING).toBe("on");
  });

  it.each([
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "GITHUB_TOKEN",
    "AWS_SECRET_ACCESS_KEY",
    "DB_PASSWORD",
  ])("never passes %s, even when asked for", (name) => {
    const environment = buildCommandEnvironment(HOST, { passEnv: [name], platform: "linux" });
    expect(Object.keys(environment)).not.toContain(name);
  });

  it("matches names exactly on POSIX", () => {
    const environment = buildCommandEnvironment(
      { path: "/evil", Home: "/x", PATH: "/usr/bin" },
      { passEnv: ["my_setting"], platform: "linux" },
    );
    expect(environment).toEqual({ PATH: "/usr/bin" });
  });

  it("keeps the Windows names, case-insensitively, with the host's spelling", () => {
    const kept = {
      Path: "C:\\Windows\\system32",
      SystemRoot: "C:\\Windows",
      windir: "C:\\Windows",
      ComSpec: "C:\\Windows\\system32\\cmd.exe",
      PATHEXT: ".COM;.EXE;.BAT;.CMD",
      USERPROFILE: "C:\\Users\\ada",
      APPDATA: "C:\\Users\\ada\\AppData\\Roaming",
      LOCALAPPDATA: "C:\\Users\\ada\\AppData\\Local",
      ProgramData: "C:\\ProgramData",
      ProgramFiles: "C:\\Program Files",
      "ProgramFiles(x86)": "C:\\Program Files (x86)",
      TEMP: "C:\\Users\\ada\\AppData\\Local\\Temp",
    };
    const dropped = { OPENAI_API_KEY: "sk-live", Azure_Token: "t", RANDOM_THING: "x" };
    expect(
      buildCommandEnvironment({ ...kept, ...dropped }, { passEnv: [], platform: "win32" }),
    ).toEqual(kept);
  });

  it("keeps only the first spelling when a Windows name appears twice", () => {
    const environment = buildCommandEnvironment(
      { Path: "C:\\first", PATH: "C:\\second" },
      { passEnv: [], platform: "win32" },
    );
    expect(environment).toEqual({ Path: "C:\\first" });
  });

  it("does not include Windows names on POSIX", () => {
    const environment = buildCommandEnvironment(
      { SystemRoot: "C:\\Windows", PATH: "/bin" },
      { passEnv: [], platform: "linux" },
    );
    expect(environment).toEqual({ PATH: "/bin" });
  });
});

describe("commandEnvironmentMayHold: whether make could take a name's value from there", () => {
  it.each([
    ["HOME", [], true],
    ["LC_ALL", [], true],
    ["SSL_CERT_FILE", [], true],
    ["LOCAL", [], false],
    ["LOCAL", ["LOCAL"], true],
    ["RM", ["RM"], true],
    // Never passed, whatever --pass-env asks: make's $(CC) is its own `cc`.
    ["CC", ["CC"], false],
    ["CFLAGS", ["CFLAGS"], false],
  ] as const)("%s with --pass-env %j: %s", (name, passEnv, held) => {
    expect(commandEnvironmentMayHold(name, { passEnv, platform: "linux" })).toBe(held);
  });
});

describe("looksLikeSecret", () => {
  it.each([
    ["OPENAI_API_KEY", true],
    ["openai_org", true],
    ["SSH_AUTH_SOCK", false],
    ["npm_config_token", true],
    ["MyPassword", true],
    ["AWS_SECRET_ACCESS_KEY", true],
    ["KEYCHAIN", true],
    ["GIT_CREDENTIAL_HELPER", true],
    ["PGPASSWD", true],
    ["PATH", false],
    ["LC_ALL", false],
  ])("%s → %s", (name, expected) => {
    expect(looksLikeSecret(name)).toBe(expected);
  });
});
