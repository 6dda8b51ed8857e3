/**
 * Chapter 4 writes without asking, so it refuses a workspace that is, or is inside, a place the
 * host loads from: a dot-folder of home, the harness's own config and state folders, an XDG
 * settings folder, ~/bin, a folder on PATH. Each refusal says why and how to choose a project
 * folder. HOME, PATH and XDG are injected; each place is reached by its real path (a link to it
 * counts).
 */
import { mkdirSync, symlinkSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  assertHomeWorkspaceAllowed,
  CHOOSE_A_PROJECT_FOLDER,
} from "../../src/bootstrap/home-workspace.js";

let base: string;
let home: string;

beforeEach(async () => {
  base = await mkdtemp(join(await realpath(tmpdir()), "ch4-workspace-"));
  home = join(base, "home");
  mkdirSync(home);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function refusal(workspace: string, env: Record<string, string> = {}): string | undefined {
  mkdirSync(workspace, { recursive: true });
  try {
    assertHomeWorkspaceAllowed(
      workspace,
      { env: { HOME: home, PATH: "/usr/bin:/bin", ...env }, platform: "linux" },
      join(base, "state"),
    );
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const REFUSES = (workspace: string, where: string): string =>
  `chapter 4 refuses to work in ${workspace}: it is ${where}, and chapter 4 writes files there without asking; ${CHOOSE_A_PROJECT_FOLDER}`;
const DOT = "a folder of your home whose files your programs load (settings, keys, scripts)";

describe("chapter 4 refuses a place the host loads from", () => {
  it.each([
    ["~/.config", ".config", "~/.config"],
    ["a folder inside ~/.config", ".config/nvim", "~/.config"],
    ["~/.local/share", ".local/share/x", "~/.local"],
    ["a dotfiles repository", ".dotfiles", "~/.dotfiles"],
  ])("%s", (_, below, name) => {
    const workspace = join(home, below);
    const inside = below.includes("/") ? "inside " : "";
    expect(refusal(workspace)).toBe(REFUSES(workspace, `${inside}${name}, ${DOT}`));
  });

  it("the harness's own config folder, wherever XDG_CONFIG_HOME puts it", () => {
    const config = join(base, "xdg");
    const workspace = join(config, "agent-harness");
    expect(refusal(workspace, { XDG_CONFIG_HOME: config })).toBe(
      REFUSES(
        workspace,
        `${workspace}, the harness's own config folder (its settings and personal AGENTS.md)`,
      ),
    );
  });

  it("XDG_CONFIG_HOME itself, outside home", () => {
    const config = join(base, "xdg");
    const workspace = join(config, "git");
    expect(refusal(workspace, { XDG_CONFIG_HOME: config })).toBe(
      REFUSES(workspace, `inside ${config}, where your programs keep the settings they load`),
    );
  });

  it("the harness's state folder", () => {
    const workspace = join(base, "state", "inner");
    expect(refusal(workspace)).toBe(
      REFUSES(
        workspace,
        `inside ${join(base, "state")}, the harness's own state folder (its runs and grants)`,
      ),
    );
  });

  it("a folder on PATH, and a folder inside one", () => {
    const bin = join(base, "tools", "bin");
    const path = { PATH: `/usr/bin:${bin}` };
    expect(refusal(bin, path)).toBe(
      REFUSES(bin, `${bin}, a folder on PATH, whose files run as commands`),
    );
    const inner = join(bin, "sub");
    expect(refusal(inner, path)).toBe(
      REFUSES(inner, `inside ${bin}, a folder on PATH, whose files run as commands`),
    );
  });

  it("a folder on PATH reached through a link to the workspace", () => {
    const workspace = join(base, "scripts");
    mkdirSync(workspace);
    symlinkSync(workspace, join(base, "linked-bin"));
    expect(refusal(workspace, { PATH: join(base, "linked-bin") })).toBe(
      REFUSES(
        workspace,
        `${join(base, "linked-bin")}, a folder on PATH, whose files run as commands`,
      ),
    );
  });

  it("~/bin, which the login shell puts on PATH", () => {
    const workspace = join(home, "bin");
    expect(refusal(workspace)).toBe(
      REFUSES(
        workspace,
        `~/bin, a folder your login shell puts on PATH, whose files run as commands`,
      ),
    );
  });

  it.each([
    ['"." first', ".:/usr/bin:/bin", '"."'],
    ['"./" last', "/usr/bin:/bin:./", '"./"'],
    ["an empty entry in the middle", "/usr/bin::/bin", "an empty entry"],
    ["a trailing colon", "/usr/bin:/bin:", "an empty entry"],
  ])("any folder, when PATH holds one that names the shell's folder: %s", (_, path, entry) => {
    const workspace = join(home, "projects", "app");
    expect(refusal(workspace, { PATH: path })).toBe(
      `chapter 4 refuses to work in ${workspace}: your PATH holds ${entry}, which names the folder your shell is in, so this folder is a folder on PATH while you work in it, whose files run as commands, and chapter 4 writes files there without asking; remove it from PATH (in your shell's start-up file), or use chapter 3, which asks before each write`,
    );
  });

  it("a relative entry naming a sub-folder (bin) does not make the workspace one: its executables are protected instead", () => {
    expect(refusal(join(home, "projects", "app"), { PATH: "bin:/usr/bin" })).toBeUndefined();
  });

  it("allows a project folder, in home or elsewhere", () => {
    expect(refusal(join(home, "projects", "app"))).toBeUndefined();
    expect(
      refusal(join(base, "work", "app"), {
        PATH: join(base, "work", "app", "node_modules", ".bin"),
      }),
    ).toBeUndefined();
  });
});
