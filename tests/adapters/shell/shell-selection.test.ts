import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FileProbe } from "../../../src/adapters/shell/executable-resolution.js";
import { PosixShellRunner } from "../../../src/adapters/shell/posix-shell.js";
import { PowerShellRunner } from "../../../src/adapters/shell/powershell.js";
import {
  ShellUnavailableError,
  planShell,
  plannedShellName,
  selectCommandRunner,
  type ShellChoice,
  type ShellSelectionOptions,
} from "../../../src/adapters/shell/shell-selection.js";
import type { CommandRunner } from "../../../src/core/ports/command-runner.js";

function fakeFiles(files: readonly string[]): FileProbe {
  const lower = new Set(files.map((file) => file.toLowerCase()));
  return { isExecutableFile: (file) => lower.has(file.toLowerCase()), realpath: (file) => file };
}

function describeRunner(runner: CommandRunner): { shellName: string; executable: string } {
  if (runner instanceof PowerShellRunner || runner instanceof PosixShellRunner) {
    return { shellName: runner.shellName, executable: runner.executable };
  }
  throw new Error("unexpected runner type");
}

function onLinux(choice: ShellChoice, files: readonly string[]): ShellSelectionOptions {
  return {
    choice,
    workspace: "/home/ada/repo",
    env: { PATH: "/home/ada/repo/bin:/usr/local/bin:/usr/bin:/bin" },
    platform: "linux",
    passEnv: [],
    probe: fakeFiles(files),
  };
}

function onWindows(choice: ShellChoice, files: readonly string[]): ShellSelectionOptions {
  return {
    choice,
    workspace: "C:\\Users\\ada\\repo",
    env: {
      Path: "C:\\Users\\ada\\repo;C:\\Program Files\\PowerShell\\7;C:\\Program Files\\Git\\bin",
      SystemRoot: "C:\\Windows",
      PATHEXT: ".COM;.EXE;.BAT;.CMD",
    },
    platform: "win32",
    passEnv: [],
    probe: fakeFiles(files),
  };
}

function selectOnLinux(choice: ShellChoice, files: readonly string[]) {
  return selectCommandRunner(onLinux(choice, files));
}

function selectOnWindows(choice: ShellChoice, files: readonly string[]) {
  return selectCommandRunner(onWindows(choice, files));
}

const PLANTED_LINUX = [
  "/home/ada/repo/bin/pwsh",
  "/home/ada/repo/bin/bash",
  "/home/ada/repo/bin/sh",
];
const PLANTED_WINDOWS = ["C:\\Users\\ada\\repo\\pwsh.exe", "C:\\Users\\ada\\repo\\powershell.exe"];
const SYSTEM_POWERSHELL = "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe";

describe("selectCommandRunner (fake filesystem)", () => {
  it.each([
    [
      "auto takes bash, not pwsh",
      "auto",
      ["/usr/bin/pwsh", "/bin/bash", "/bin/sh"],
      { shellName: "bash", executable: "/bin/bash" },
    ],
    [
      "auto falls back to bash",
      "auto",
      ["/bin/bash", "/bin/sh"],
      { shellName: "bash", executable: "/bin/bash" },
    ],
    [
      "auto takes sh, never pwsh, when there is no bash",
      "auto",
      ["/usr/bin/pwsh", "/bin/sh"],
      { shellName: "sh", executable: "/bin/sh" },
    ],
    ["auto falls back to sh", "auto", ["/bin/sh"], { shellName: "sh", executable: "/bin/sh" }],
    [
      "posix skips pwsh",
      "posix",
      ["/usr/bin/pwsh", "/usr/bin/bash"],
      { shellName: "bash", executable: "/usr/bin/bash" },
    ],
    [
      "powershell finds pwsh",
      "powershell",
      ["/usr/local/bin/pwsh", "/bin/bash"],
      { shellName: "PowerShell 7", executable: "/usr/local/bin/pwsh" },
    ],
  ] as const)("linux: %s", (_name, choice, files, expected) => {
    expect(describeRunner(selectOnLinux(choice, [...PLANTED_LINUX, ...files]))).toEqual(expected);
    expect(plannedShellName(onLinux(choice, [...PLANTED_LINUX, ...files]))).toBe(
      expected.shellName,
    );
  });

  it.each([
    [
      "auto prefers pwsh",
      "auto",
      ["C:\\Program Files\\PowerShell\\7\\pwsh.exe", SYSTEM_POWERSHELL],
      { shellName: "PowerShell 7", executable: "C:\\Program Files\\PowerShell\\7\\pwsh.exe" },
    ],
    [
      "auto falls back to Windows PowerShell in System32",
      "auto",
      [SYSTEM_POWERSHELL, "C:\\Program Files\\Git\\bin\\bash.exe"],
      { shellName: "Windows PowerShell", executable: SYSTEM_POWERSHELL },
    ],
    [
      "auto falls back to Git Bash",
      "auto",
      ["C:\\Program Files\\Git\\bin\\bash.exe"],
      { shellName: "bash", executable: "C:\\Program Files\\Git\\bin\\bash.exe" },
    ],
    [
      "posix takes bash.exe, never a bash.cmd listed earlier in PATHEXT",
      "posix",
      ["C:\\Program Files\\PowerShell\\7\\bash.cmd", "C:\\Program Files\\Git\\bin\\bash.exe"],
      { shellName: "bash", executable: "C:\\Program Files\\Git\\bin\\bash.exe" },
    ],
    [
      "posix finds Git Bash",
      "posix",
      [SYSTEM_POWERSHELL, "C:\\Program Files\\Git\\bin\\bash.exe"],
      { shellName: "bash", executable: "C:\\Program Files\\Git\\bin\\bash.exe" },
    ],
  ] as const)("win32: %s", (_name, choice, files, expected) => {
    expect(describeRunner(selectOnWindows(choice, [...PLANTED_WINDOWS, ...files]))).toEqual(
      expected,
    );
    expect(plannedShellName(onWindows(choice, [...PLANTED_WINDOWS, ...files]))).toBe(
      expected.shellName,
    );
  });

  it.each([
    [
      "linux",
      "powershell",
      () => selectOnLinux("powershell", [...PLANTED_LINUX, "/bin/bash"]),
      "PowerShell was requested (--shell powershell) but pwsh was not found on PATH",
    ],
    [
      "linux",
      "posix",
      () => selectOnLinux("posix", [...PLANTED_LINUX, "/usr/bin/pwsh"]),
      "A POSIX shell was requested (--shell posix) but neither bash nor sh was found on PATH",
    ],
    [
      "linux",
      "auto",
      () => selectOnLinux("auto", [...PLANTED_LINUX, "/usr/bin/pwsh"]),
      "No shell found: neither bash nor sh is on PATH",
    ],
    [
      "win32",
      "powershell",
      () => selectOnWindows("powershell", PLANTED_WINDOWS),
      "PowerShell was requested (--shell powershell) but neither pwsh nor powershell.exe was found on PATH",
    ],
    [
      "win32",
      "auto",
      () => selectOnWindows("auto", PLANTED_WINDOWS),
      "No shell found: neither pwsh, powershell.exe, bash nor sh is on PATH",
    ],
  ] as const)(
    "%s --shell %s with nothing usable is a configuration error",
    (_p, _c, select, message) => {
      expect(select).toThrow(new ShellUnavailableError(message));
      expect(select).toThrow(ShellUnavailableError);
    },
  );
});

describe.skipIf(process.platform === "win32")(
  "selectCommandRunner on this machine (POSIX only: runs bash or sh from /usr/bin:/bin)",
  () => {
    let workspace: string;

    beforeEach(async () => {
      workspace = await mkdtemp(join(await realpath(tmpdir()), "shell-selection-"));
    });

    afterEach(async () => {
      await rm(workspace, { recursive: true, force: true });
    });

    it("hides the API key and tokens from commands, but passes what --pass-env names", async () => {
      const runner = selectCommandRunner({
        choice: "posix",
        workspace,
        env: {
          PATH: "/usr/bin:/bin",
          OPENAI_API_KEY: "sk-must-not-leak",
          GITHUB_TOKEN: "ghp-must-not-leak",
          PROJECT_MODE: "dev",
          UNLISTED: "nope",
        },
        platform: process.platform,
        passEnv: ["PROJECT_MODE", "GITHUB_TOKEN"],
      });
      const result = await runner.run(
        'echo "[$OPENAI_API_KEY][$GITHUB_TOKEN][$PROJECT_MODE][$UNLISTED]"; env | grep -c -e sk-must -e ghp-must',
        workspace,
        { timeoutMs: 20_000, maxOutputBytes: 1024 },
      );
      expect(result).toEqual({
        exitCode: 1,
        output: "[][][dev][]\n0\n",
        truncated: false,
        timedOut: false,
      });
    });
  },
);

describe.skipIf(process.platform === "win32")(
  "PowerShell installed as a .NET tool (a real directory laid out like ~/.dotnet/tools; POSIX only)",
  () => {
    let root: string;
    let tools: string;
    let bin: string;

    const dllIn = (version: string): string =>
      join(tools, ".store", "powershell", version, "powershell", version, "tools", "net10.0");

    async function plantFile(file: string): Promise<void> {
      await mkdir(join(file, ".."), { recursive: true });
      await writeFile(file, "#!/bin/sh\nexit 0\n");
      await chmod(file, 0o755);
    }

    beforeEach(async () => {
      root = await mkdtemp(join(await realpath(tmpdir()), "dotnet-tool-"));
      tools = join(root, "tools");
      bin = join(root, "bin");
      await plantFile(join(tools, "pwsh"));
      await plantFile(join(dllIn("7.6.9"), "any", "unix", "pwsh.dll"));
    });

    afterEach(async () => {
      await rm(root, { recursive: true, force: true });
    });

    const plan = () =>
      planShell({
        choice: "powershell",
        workspace: join(root, "workspace"),
        env: { PATH: `${tools}:${bin}` },
        platform: "linux",
        passEnv: [],
      });

    it("runs the tool's pwsh.dll with the dotnet on PATH, never the shim", async () => {
      await plantFile(join(bin, "dotnet"));
      expect(plan()).toMatchObject({
        family: "powershell",
        flavor: "pwsh",
        executable: join(bin, "dotnet"),
        entryPoint: join(dllIn("7.6.9"), "any", "unix", "pwsh.dll"),
      });
    });

    it("finds no PowerShell when no trusted dotnet is on PATH", () => {
      expect(plan).toThrow(
        new ShellUnavailableError(
          "PowerShell was requested (--shell powershell) but pwsh was not found on PATH",
        ),
      );
    });

    it("finds no PowerShell when the store holds two versions (which one the shim runs is unclear)", async () => {
      await plantFile(join(bin, "dotnet"));
      await plantFile(join(dllIn("7.5.0"), "any", "unix", "pwsh.dll"));
      expect(plan).toThrow(ShellUnavailableError);
    });
  },
);
