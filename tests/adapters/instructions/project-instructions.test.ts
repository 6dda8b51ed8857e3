import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  HUGE_INSTRUCTIONS_BYTES,
  INSTRUCTIONS_LIMIT_BYTES,
  instructionsStatus,
  loadProjectInstructions,
} from "../../../src/adapters/instructions/index.js";

let root: string;
let workspace: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "agent-instructions-")));
  workspace = join(root, "ws");
  await mkdir(join(workspace, "a", "b"), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function load(startDirectory = workspace, env: Record<string, string> = {}) {
  return loadProjectInstructions({
    workspace,
    startDirectory,
    env: { XDG_CONFIG_HOME: join(root, "config"), ...env },
    platform: "linux",
    home: join(root, "home"),
  });
}

describe("which AGENTS.md files, in which order", () => {
  it("in a git repository above the workspace, its root's and each one down to the workspace", async () => {
    await mkdir(join(root, ".git"));
    await writeFile(join(root, "AGENTS.md"), "repository");
    await writeFile(join(workspace, "AGENTS.md"), "workspace");
    // A home elsewhere: this file's usual one, root/home, is inside the repository.
    const loaded = loadProjectInstructions({
      workspace,
      startDirectory: workspace,
      env: { XDG_CONFIG_HOME: join(root, "config") },
      platform: "linux",
      home: join(tmpdir(), "agent-instructions-no-home"),
    });
    expect(loaded.loaded).toEqual(["../AGENTS.md", "AGENTS.md"]);
    expect(instructionsStatus(loaded)).toBe("instructions ../AGENTS.md, AGENTS.md");
  });

  it("none above the workspace when the repository's root is the home directory or above it", async () => {
    await mkdir(join(root, ".git"));
    await writeFile(join(root, "AGENTS.md"), "dotfiles");
    const loaded = loadProjectInstructions({
      workspace,
      startDirectory: workspace,
      env: { XDG_CONFIG_HOME: join(root, "config") },
      platform: "linux",
      home: root,
    });
    expect(loaded.loaded).toEqual([]);
  });

  it("none above a workspace that is itself a repository's root", async () => {
    await mkdir(join(root, ".git"));
    await mkdir(join(workspace, ".git"));
    await writeFile(join(root, "AGENTS.md"), "outer");
    const loaded = loadProjectInstructions({
      workspace,
      startDirectory: workspace,
      env: { XDG_CONFIG_HOME: join(root, "config") },
      platform: "linux",
      home: join(tmpdir(), "agent-instructions-no-home"),
    });
    expect(loaded.loaded).toEqual([]);
  });

  it("root, then each directory down to the start directory, nearest last", async () => {
    await writeFile(join(workspace, "AGENTS.md"), "root");
    await writeFile(join(workspace, "a", "b", "AGENTS.md"), "b");
    await writeFile(join(workspace, "a", "AGENTS.md"), "a");

    const loaded = load(join(workspace, "a", "b"));

    expect(loaded.loaded).toEqual(["AGENTS.md", "a/AGENTS.md", "a/b/AGENTS.md"]);
    expect(loaded.text).toMatch(
      /^# Project instructions\n\n[^#]+\n\n## AGENTS\.md\n\nroot\n\n## a\/AGENTS\.md\n\na\n\n## a\/b\/AGENTS\.md\n\nb$/,
    );
    expect(loaded.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(instructionsStatus(loaded)).toBe("instructions AGENTS.md, a/AGENTS.md, a/b/AGENTS.md");
  });

  it("a start directory outside the workspace adds nothing below the root", async () => {
    await writeFile(join(workspace, "AGENTS.md"), "root");
    expect(load(root).loaded).toEqual(["AGENTS.md"]);
  });

  it("none at all: no text, no digest, no status", () => {
    const loaded = load();
    expect(loaded).toMatchObject({ text: "", digest: undefined, loaded: [], refused: [] });
    expect(instructionsStatus(loaded)).toBeUndefined();
  });

  it("the personal file: $XDG_CONFIG_HOME, else ~/.config, %APPDATA% on Windows; a relative XDG_CONFIG_HOME is ignored", async () => {
    await mkdir(join(root, "home", ".config", "agent-harness"), { recursive: true });
    await writeFile(join(root, "home", ".config", "agent-harness", "AGENTS.md"), "mine");
    expect(load(workspace, { XDG_CONFIG_HOME: "relative" }).loaded).toEqual([
      "~/.config/agent-harness/AGENTS.md",
    ]);
    await mkdir(join(root, "appdata", "agent-harness"), { recursive: true });
    await writeFile(join(root, "appdata", "agent-harness", "AGENTS.md"), "win");
    const windows = loadProjectInstructions({
      workspace,
      startDirectory: workspace,
      env: { APPDATA: join(root, "appdata") },
      platform: "win32",
      home: join(root, "home"),
    });
    expect(windows.text).toContain("\n\nwin");
  });

  it("the personal file may be a link (dotfile managers); a workspace one may not", async () => {
    await mkdir(join(root, "config", "agent-harness"), { recursive: true });
    await writeFile(join(root, "dotfiles.md"), "linked");
    await symlink(join(root, "dotfiles.md"), join(root, "config", "agent-harness", "AGENTS.md"));
    await symlink(join(root, "dotfiles.md"), join(workspace, "AGENTS.md"));

    const loaded = load();

    expect(loaded.loaded).toEqual([join(root, "config", "agent-harness", "AGENTS.md")]);
    expect(loaded.refused).toEqual([{ label: "AGENTS.md", reason: "it is a symbolic link" }]);
  });
});

describe("bad input is refused, never read, never a hang", () => {
  it.each([
    [
      "a directory",
      () => mkdir(join(workspace, "AGENTS.md")),
      "it is not a regular file (directory)",
    ],
    [
      "a FIFO",
      () => Promise.resolve(void execFileSync("mkfifo", [join(workspace, "AGENTS.md")])),
      "it is not a regular file (FIFO)",
    ],
    [
      "a link out of the workspace",
      () => symlink("/etc/passwd", join(workspace, "AGENTS.md")),
      "it is a symbolic link",
    ],
    [
      "binary (a NUL byte)",
      () => writeFile(join(workspace, "AGENTS.md"), Buffer.from([0x72, 0x00, 0x75])),
      "it is not UTF-8 text",
    ],
    [
      "not UTF-8",
      () => writeFile(join(workspace, "AGENTS.md"), Buffer.from([0xff, 0xfe, 0x41])),
      "it is not UTF-8 text",
    ],
    [
      "huge",
      () => writeFile(join(workspace, "AGENTS.md"), "x".repeat(HUGE_INSTRUCTIONS_BYTES + 1)),
      "it is larger than 256 KiB",
    ],
  ])("%s", async (_name, make, reason) => {
    await make();
    const loaded = load();
    expect(loaded.text).toBe("");
    expect(loaded.refused).toEqual([{ label: "AGENTS.md", reason }]);
    expect(instructionsStatus(loaded)).toBe(`AGENTS.md not read: ${reason}`);
  });
});

describe("the 32 KiB cap in all", () => {
  it("cuts where it is reached, says so in the text and the status, and leaves out what follows", async () => {
    await writeFile(join(workspace, "AGENTS.md"), "r".repeat(INSTRUCTIONS_LIMIT_BYTES - 100));
    await writeFile(join(workspace, "a", "AGENTS.md"), "é".repeat(200));
    await writeFile(join(workspace, "a", "b", "AGENTS.md"), "never");

    const loaded = load(join(workspace, "a", "b"));

    expect(loaded.loaded).toEqual(["AGENTS.md", "a/AGENTS.md"]);
    expect(loaded.text).toContain(
      `## a/AGENTS.md\n\n${"é".repeat(50)}\n\n[cut here: the instructions passed the 32 KiB limit; the rest of a/AGENTS.md was not loaded]`,
    );
    expect(loaded.text).not.toContain("never");
    expect(instructionsStatus(loaded)).toBe(
      "instructions AGENTS.md, a/AGENTS.md (cut) · a/b/AGENTS.md not read: the 32 KiB limit for instructions was reached",
    );
  });
});
