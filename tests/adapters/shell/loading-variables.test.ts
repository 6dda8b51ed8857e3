/**
 * `--pass-env` refuses, by kind, every variable that makes a program load code or configuration:
 * each row is a name, the kind it is refused as (said in the notice, exactly), and that it never
 * reaches a command. Names of no such kind pass.
 */
import { describe, expect, it } from "vitest";
import { buildCommandEnvironment, passEnvNotices } from "../../../src/adapters/shell/index.js";

const SHELL =
  "configures the shell itself (a startup file, functions or options), which could run a file from the workspace before every command";
const LOADER =
  "makes the system's loader or C library load the libraries, modules or files it names (LD_*, DYLD_*, GCONV_PATH, GLIBC_TUNABLES, …)";
const RUNTIME =
  "belongs to a language runtime or tool that loads code or configuration from it (NODE_*, NPM_CONFIG_*, PYTHON*, PERL*, RUBY*, JAVA*, GIT_*, DOTNET_*, PSModulePath, …)";
const OPTIONS =
  "gives a program options or flags (*_OPTIONS, *_OPTS, *FLAGS, *OPT), which can make it load a module, an agent or a file";
const WHERE =
  "tells a program where to find code or configuration to load (*_PATH, *_HOME, *_DIR, *_CONFIG, *RC, *_INIT, *_PROFILE, *LIB, *_PLUGINS, …)";
const PROGRAM =
  "names a program that other programs run (EDITOR, PAGER, CC, *_COMMAND, *_ASKPASS, …)";

const REFUSED: readonly (readonly [string, string])[] = [
  ["BASH_ENV", SHELL],
  ["ENV", SHELL],
  ["LD_PRELOAD", SHELL],
  ["LD_LIBRARY_PATH", LOADER],
  ["LD_AUDIT", SHELL],
  ["ld_library_path", LOADER],
  ["DYLD_LIBRARY_PATH", LOADER],
  ["GLIBC_TUNABLES", LOADER],
  ["GCONV_PATH", LOADER],
  ["NODE_OPTIONS", RUNTIME],
  ["NODE_PATH", RUNTIME],
  ["NPM_CONFIG_SCRIPT_SHELL", RUNTIME],
  ["npm_config_node_options", RUNTIME],
  ["PYTHONPATH", RUNTIME],
  ["PYTHONSTARTUP", RUNTIME],
  ["PERL5OPT", RUNTIME],
  ["PERL5LIB", RUNTIME],
  ["RUBYOPT", RUNTIME],
  ["JAVA_TOOL_OPTIONS", RUNTIME],
  ["_JAVA_OPTIONS", RUNTIME],
  ["GIT_SSH_COMMAND", RUNTIME],
  ["GIT_CONFIG_GLOBAL", RUNTIME],
  ["PSModulePath", RUNTIME],
  ["DOTNET_ADDITIONAL_DEPS", RUNTIME],
  ["XDG_CONFIG_HOME", RUNTIME],
  ["MAVEN_OPTS", OPTIONS],
  ["GRADLE_OPTS", OPTIONS],
  ["MAKEFLAGS", OPTIONS],
  ["ERL_AFLAGS", RUNTIME],
  ["SOME_TOOL_OPTIONS", OPTIONS],
  ["CLASSPATH", RUNTIME],
  ["MY_PLUGIN_PATH", WHERE],
  ["TOOL_HOME", WHERE],
  ["KUBECONFIG", RUNTIME],
  ["DOCKER_CONFIG", WHERE],
  ["R_PROFILE", WHERE],
  ["LUA_INIT", RUNTIME],
  ["EDITOR", PROGRAM],
  ["LESSOPEN", PROGRAM],
  ["CC", PROGRAM],
  ["SUDO_ASKPASS", PROGRAM],
  ["RUSTC_WRAPPER", RUNTIME],
  ["BUILD_COMMAND", PROGRAM],
];

const PASSED = ["DEBUG", "CI", "MY_SETTING", "PROJECT_MODE", "FORCE_COLOR", "NO_COLOR"];

describe("--pass-env kinds", () => {
  it.each(REFUSED)("%s is refused as its kind, said exactly", (name, why) => {
    expect(passEnvNotices([name], { [name]: "/ws/evil" }, "linux")).toEqual([
      `--pass-env ${name} is not passed: it ${why}, and those never reach commands`,
    ]);
  });

  it.each(REFUSED)("%s never reaches a command, on POSIX or Windows", (name) => {
    const host = { PATH: "/usr/bin", [name]: "/ws/evil" };
    expect(buildCommandEnvironment(host, { passEnv: [name], platform: "linux" })).toEqual({
      PATH: "/usr/bin",
    });
    // Windows PowerShell needs the host's own PSModulePath; it is passed there without asking.
    if (name === "PSModulePath") return;
    expect(
      buildCommandEnvironment(
        { Path: "C:\\Windows", [name.toLowerCase()]: "C:\\ws\\evil" },
        { passEnv: [name], platform: "win32" },
      ),
    ).toEqual({ Path: "C:\\Windows" });
  });

  it("passes a name of no such kind, and says nothing of it", () => {
    const host = Object.fromEntries(PASSED.map((name) => [name, "1"]));
    expect(passEnvNotices(PASSED, host, "linux")).toEqual([]);
    expect(buildCommandEnvironment(host, { passEnv: PASSED, platform: "linux" })).toEqual(host);
  });

  it("does not call a name every command gets anyway refused (PATH, SHELL)", () => {
    expect(
      passEnvNotices(["PATH", "SHELL"], { PATH: "/usr/bin", SHELL: "/bin/sh" }, "linux"),
    ).toEqual([]);
  });
});
