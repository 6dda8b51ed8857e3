import {
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  openWorkspaceState,
  stateRootPath,
  workspaceDirectoryName,
} from "../../../src/adapters/state/index.js";
import { scratchDirectories } from "../../support/scratch-directories.js";

/** chown to another user needs root. */
const IS_ROOT = process.getuid?.() === 0;

const home = "/home/ada";

describe("stateRootPath", () => {
  it("prefers --state-dir, then AGENT_STATE_DIR", () => {
    const env = { AGENT_STATE_DIR: "/srv/state", XDG_STATE_HOME: "/x" };
    expect(stateRootPath({ flag: "/flag", env, platform: "linux", homeDirectory: home })).toBe(
      "/flag",
    );
    expect(stateRootPath({ env, platform: "linux", homeDirectory: home })).toBe("/srv/state");
  });

  it("uses XDG_STATE_HOME only when it is absolute, else ~/.local/state", () => {
    const platform = "linux";
    expect(stateRootPath({ env: { XDG_STATE_HOME: "/x" }, platform, homeDirectory: home })).toBe(
      "/x/agent-harness",
    );
    expect(stateRootPath({ env: { XDG_STATE_HOME: "rel" }, platform, homeDirectory: home })).toBe(
      "/home/ada/.local/state/agent-harness",
    );
    expect(stateRootPath({ env: {}, platform, homeDirectory: home })).toBe(
      "/home/ada/.local/state/agent-harness",
    );
  });

  it("uses LOCALAPPDATA on Windows", () => {
    const root = stateRootPath({
      env: { LOCALAPPDATA: "/C/Users/ada/AppData/Local" },
      platform: "win32",
      homeDirectory: home,
    });
    expect(root).toBe(join("/C/Users/ada/AppData/Local", "agent-harness"));
  });
});

describe("openWorkspaceState", () => {
  const made = scratchDirectories("state-dir-");
  const scratch = (): string => realpathSync(made());

  it("creates owner-only directories named by the workspace and labels them", () => {
    const base = scratch();
    const workspace = join(base, "my project");
    mkdirSync(workspace);
    const state = openWorkspaceState(join(base, "state"), workspace);
    expect(state.directory).toBe(
      join(base, "state", "workspaces", workspaceDirectoryName(workspace)),
    );
    expect(workspaceDirectoryName(workspace)).toMatch(/^my_project-[0-9a-f]{16}$/);
    expect(statSync(state.directory).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(state.directory, "workspace.txt"), "utf8")).toBe(`${workspace}\n`);
    // Opening again is fine and keeps the same directory.
    expect(openWorkspaceState(join(base, "state"), workspace)).toEqual(state);
  });

  it("refuses a state directory inside the workspace, or a workspace inside it", () => {
    const base = scratch();
    expect(() => openWorkspaceState(join(base, ".state"), base)).toThrow(/overlaps the workspace/);
    const root = join(base, "root");
    mkdirSync(join(root, "inner"), { recursive: true });
    expect(() => openWorkspaceState(root, join(root, "inner"))).toThrow(/overlaps the workspace/);
  });

  it("run from the home directory, says to run it in the project rather than only to move the state", () => {
    const home = scratch();
    const state = join(home, ".local", "state", "agent-harness");
    expect(() => openWorkspaceState(state, home)).toThrow(
      `the state directory ${state} overlaps the workspace ${home}: run the agent in your ` +
        "project's directory (or give --workspace DIR), or keep the state outside the workspace " +
        "(--state-dir or AGENT_STATE_DIR)",
    );
  });

  it("never follows a symbolic link planted for the workspace's directory", () => {
    const base = scratch();
    const workspace = join(base, "ws");
    const elsewhere = join(base, "elsewhere");
    mkdirSync(workspace);
    mkdirSync(elsewhere);
    const root = join(base, "state");
    mkdirSync(join(root, "workspaces"), { recursive: true, mode: 0o700 });
    chmodSync(root, 0o700);
    symlinkSync(elsewhere, join(root, "workspaces", workspaceDirectoryName(workspace)));
    expect(() => openWorkspaceState(root, workspace)).toThrow(/is a symbolic link/);
  });

  it("refuses a root that others can write", () => {
    const base = scratch();
    const workspace = join(base, "ws");
    mkdirSync(workspace);
    const root = join(base, "shared");
    mkdirSync(root);
    chmodSync(root, 0o777);
    expect(() => openWorkspaceState(root, workspace)).toThrow(/writable by other users/);
  });

  // Whoever can write a directory above the root can rename the root away and put their own in
  // its place after the check: the root is only as private as every directory it lies in.
  it("refuses a root inside a directory others can write, even through a link to it", () => {
    const base = scratch();
    const workspace = join(base, "ws");
    mkdirSync(workspace);
    const shared = join(base, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect(() => openWorkspaceState(join(shared, "state"), workspace)).toThrow(
      new RegExp(`lies in ${shared}, which other users can change`),
    );
    symlinkSync(shared, join(base, "mine"));
    expect(() => openWorkspaceState(join(base, "mine", "deeper", "state"), workspace)).toThrow(
      /which other users can change/,
    );
  });

  it("accepts a sticky directory others can write (like /tmp) and a link of one's own", () => {
    const base = scratch();
    const workspace = join(base, "ws");
    mkdirSync(workspace);
    const sticky = join(base, "tmp");
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    expect(openWorkspaceState(join(sticky, "state"), workspace).root).toBe(join(sticky, "state"));
    // Its own mode, not the umask's: under umask 000 others could write it, and it is refused.
    mkdirSync(join(base, "real"), { mode: 0o755 });
    symlinkSync(join(base, "real"), join(base, "link"));
    expect(openWorkspaceState(join(base, "link", "state"), workspace).root).toBe(
      join(base, "real", "state"),
    );
  });

  it.runIf(IS_ROOT)(
    `refuses a root inside another user's directory${IS_ROOT ? "" : " (skipped: needs root to chown)"}`,
    () => {
      const base = scratch();
      const workspace = join(base, "ws");
      mkdirSync(workspace);
      const theirs = join(base, "theirs");
      mkdirSync(theirs, { mode: 0o755 });
      chownSync(theirs, 4242, 4242);
      expect(() => openWorkspaceState(join(theirs, "state"), workspace)).toThrow(
        new RegExp(`lies in ${theirs}, which other users can change`),
      );
    },
  );
});
