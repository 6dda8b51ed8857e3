import { describe, expect, it } from "vitest";
import {
  bubblewrapArgs,
  type BubblewrapArgsOptions,
} from "../../../src/adapters/sandbox/bubblewrap-args.js";
import {
  SandboxSetupError,
  SandboxWorkspaceError,
} from "../../../src/adapters/sandbox/sandbox-errors.js";
import { exitCodeFromStatus } from "../../../src/adapters/sandbox/sandboxed-process.js";
import { CommandStartError } from "../../../src/core/ports/command-runner.js";

const BASE: BubblewrapArgsOptions = {
  workspace: "/home/ada/project",
  cwd: "/home/ada/project",
  readOnlyPaths: [],
  home: "/home/ada",
  network: false,
  environment: { PATH: "/usr/bin:/bin", HOME: "/home/ada", LANG: "C.UTF-8" },
  statusFd: 3,
  procMasks: [
    ["--ro-bind", "/proc/sys", "/proc/sys"],
    ["--dev-bind", "/dev/null", "/proc/kcore"],
  ],
  seccompFd: 4,
  command: ["/usr/bin/bash", "--noprofile", "--norc", "-c", "echo hi"],
};

function errorOf(options: BubblewrapArgsOptions): unknown {
  try {
    bubblewrapArgs(options);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("bubblewrapArgs", () => {
  it("builds the whole argv, in mount order, with no network", () => {
    expect(bubblewrapArgs(BASE)).toEqual([
      "--ro-bind", "/", "/",
      "--dev", "/dev",
      "--proc", "/proc",
      "--ro-bind", "/proc/sys", "/proc/sys",
      "--dev-bind", "/dev/null", "/proc/kcore",
      "--tmpfs", "/tmp",
      "--tmpfs", "/run",
      "--bind", "/home/ada/project", "/home/ada/project",
      "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
      "--unshare-net",
      "--cap-drop", "ALL",
      "--clearenv",
      "--setenv", "PATH", "/usr/bin:/bin",
      "--setenv", "HOME", "/home/ada",
      "--setenv", "LANG", "C.UTF-8",
      "--die-with-parent",
      "--new-session",
      "--chdir", "/home/ada/project",
      "--json-status-fd", "3",
      "--seccomp", "4",
      "--", "/usr/bin/bash", "--noprofile", "--norc", "-c", "echo hi",
    ]); // prettier-ignore
  });

  it("keeps the network namespace shared only when network is on", () => {
    const args = bubblewrapArgs({ ...BASE, network: true });
    expect(args).not.toContain("--unshare-net");
    const start = args.indexOf("--unshare-user");
    expect(args.slice(start, start + 6)).toEqual([
      "--unshare-user",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--cap-drop",
      "ALL",
    ]);
  });

  it("re-binds .git (a directory or a worktree's file) read-only after the writable workspace", () => {
    const args = bubblewrapArgs({
      ...BASE,
      cwd: "/home/ada/project/src",
      readOnlyPaths: ["/home/ada/project/.git"],
    });
    const bind = args.indexOf("--bind");
    expect(args.slice(bind, bind + 7)).toEqual([
      "--bind",
      "/home/ada/project",
      "/home/ada/project",
      "--ro-bind",
      "/home/ada/project/.git",
      "/home/ada/project/.git",
      "--unshare-user",
    ]);
    expect(args.slice(args.indexOf("--chdir"), args.indexOf("--chdir") + 2)).toEqual([
      "--chdir",
      "/home/ada/project/src",
    ]);
  });

  it("points every temp-directory variable at the sandbox's private /tmp", () => {
    const args = bubblewrapArgs({
      ...BASE,
      environment: { TMPDIR: "/tmp/user/1000", TMP: "/var/tmp", TEMP: "/x", TZ: "UTC" },
    });
    const start = args.indexOf("--clearenv") + 1;
    expect(args.slice(start, start + 12)).toEqual([
      "--setenv", "TMPDIR", "/tmp",
      "--setenv", "TMP", "/tmp",
      "--setenv", "TEMP", "/tmp",
      "--setenv", "TZ", "UTC",
    ]); // prettier-ignore
  });

  it("passes a command with quotes, newlines and `--` through as one argument", () => {
    const command = "printf '%s\\n' \"a b\" -- --tmpfs /\necho $HOME";
    const args = bubblewrapArgs({ ...BASE, command: ["/bin/sh", "-c", command] });
    expect(args.slice(-4)).toEqual(["--", "/bin/sh", "-c", command]);
  });

  it.each([
    ["/", "The sandbox refuses to make / writable: run the agent in a project directory"],
    [
      "/home/ada",
      "The sandbox refuses to make /home/ada writable: it is the home directory; run the agent in a project directory",
    ],
    [
      "/home",
      "The sandbox refuses to make /home writable: it contains the home directory; run the agent in a project directory",
    ],
  ])("refuses the workspace %s with a typed error", (workspace, message) => {
    const error = errorOf({ ...BASE, workspace, cwd: workspace });
    expect(error).toBeInstanceOf(SandboxWorkspaceError);
    expect(error).toBeInstanceOf(SandboxSetupError);
    expect(error).toBeInstanceOf(CommandStartError);
    expect((error as Error).message).toBe(message);
  });

  it("accepts a sibling of the home directory that merely shares its prefix", () => {
    expect(bubblewrapArgs({ ...BASE, workspace: "/home/ada2", cwd: "/home/ada2" })).toContain(
      "/home/ada2",
    );
  });

  it.each([
    [
      { cwd: "/home/ada/project-evil" },
      "The sandbox working directory is outside the workspace: /home/ada/project-evil",
    ],
    [
      { readOnlyPaths: ["/home/ada/.git"] },
      "The sandbox read-only path is outside the workspace: /home/ada/.git",
    ],
    [
      { workspace: "relative/ws", cwd: "relative/ws" },
      "The sandbox workspace must be an absolute real path: relative/ws",
    ],
    [
      { workspace: "/home/ada/project/../other", cwd: "/home/ada/other" },
      "The sandbox workspace must be an absolute real path: /home/ada/project/../other",
    ],
  ])("refuses paths that are not inside the workspace: %j", (override, message) => {
    const error = errorOf({ ...BASE, ...override });
    expect(error).toBeInstanceOf(SandboxSetupError);
    expect((error as Error).message).toBe(message);
  });

  it("refuses a status descriptor that would collide with stdio, and an empty command", () => {
    expect(errorOf({ ...BASE, statusFd: 2 })).toEqual(
      new RangeError("statusFd must be an integer of at least 3, got 2"),
    );
    expect(errorOf({ ...BASE, command: [] })).toEqual(
      new RangeError("command must name a program"),
    );
  });

  it.each([2, 3, 4.5, Number.NaN])("refuses seccompFd %s: stdio, the status fd, or no fd", (fd) => {
    expect(errorOf({ ...BASE, seccompFd: fd })).toEqual(
      new RangeError(
        `seccompFd must be an integer of at least 3 other than statusFd, got ${String(fd)}`,
      ),
    );
  });
});

describe("exitCodeFromStatus", () => {
  it.each([
    ['{ "child-pid": 7 }\n{ "exit-code": 42 }\n', 42],
    ['{ "child-pid": 7 }\n{ "exit-code": 0 }', 0],
    ['{ "child-pid": 7 }\n', undefined],
    ["", undefined],
    ['{ "exit-code": "1" }\nnot json\n{ "exit-code": 1.5 }\n', undefined],
  ])("reads %j as %s", (text, expected) => {
    expect(exitCodeFromStatus(text)).toBe(expected);
  });
});

describe("bubblewrapArgs: hidden paths (the harness's state directory)", () => {
  const state = "/home/ada/.local/state/agent-harness";

  it("covers each with an empty read-only tmpfs, after /tmp and /run, before the workspace", () => {
    const args = bubblewrapArgs({ ...BASE, hiddenPaths: [state] });
    const run = args.indexOf("/run");
    expect(args.slice(run + 1, run + 8)).toEqual([
      "--tmpfs",
      state,
      "--remount-ro",
      state,
      "--bind",
      BASE.workspace,
      BASE.workspace,
    ]);
  });

  it.each([
    ["inside the workspace", "/home/ada/project/state"],
    ["holding the workspace", "/home/ada"],
    ["not a normal absolute path", "state"],
  ])("refuses one %s", (_label, hidden) => {
    const error = errorOf({ ...BASE, hiddenPaths: [hidden] });
    expect(error).toBeInstanceOf(SandboxSetupError);
    expect((error as Error).message).toBe(
      `The sandbox cannot hide ${hidden}: it overlaps the workspace`,
    );
  });
});

describe("bubblewrapArgs: the package cache and masked credential files", () => {
  const cache = "/home/ada/.local/state/agent-harness/workspaces/p/sandbox-cache";
  const mask = "/tmp/agent-sandbox-x/credential-mask";

  it("binds the cache writable on the private /tmp, then masks files read-only, before the workspace", () => {
    const args = bubblewrapArgs({
      ...BASE,
      cacheDirectory: cache,
      cacheMount: "/tmp/.agent-cache",
      hiddenPaths: ["/home/ada/.ssh"],
      maskedFiles: ["/home/ada/.netrc"],
      maskSource: mask,
    });
    const run = args.indexOf("/run");
    expect(args.slice(run + 1, run + 14)).toEqual([
      "--bind",
      cache,
      "/tmp/.agent-cache",
      "--tmpfs",
      "/home/ada/.ssh",
      "--remount-ro",
      "/home/ada/.ssh",
      "--ro-bind",
      mask,
      "/home/ada/.netrc",
      "--bind",
      BASE.workspace,
      BASE.workspace,
    ]);
  });

  it.each([
    [
      "a cache mounted outside /tmp",
      { cacheDirectory: cache, cacheMount: "/home/ada/.npm" },
      "The sandbox cache must be mounted under /tmp, not /home/ada/.npm",
    ],
    [
      "a cache inside the workspace",
      { cacheDirectory: "/home/ada/project/cache", cacheMount: "/tmp/.agent-cache" },
      "The sandbox cannot hide /home/ada/project/cache: it overlaps the workspace",
    ],
    [
      "a masked file with nothing to mask it with",
      { maskedFiles: ["/home/ada/.netrc"] },
      "The sandbox needs an empty file to mask credential files with",
    ],
    [
      "a masked file inside the workspace",
      { maskedFiles: ["/home/ada/project/.npmrc"], maskSource: mask },
      "The sandbox cannot hide /home/ada/project/.npmrc: it overlaps the workspace",
    ],
  ])("refuses %s", (_label, extra, message) => {
    const error = errorOf({ ...BASE, ...extra });
    expect(error).toBeInstanceOf(SandboxSetupError);
    expect((error as Error).message).toBe(message);
  });
});
