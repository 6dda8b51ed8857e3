import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isWithinRoot } from "../../../src/adapters/filesystem/index.js";
import { credentialMasks } from "../../../src/adapters/sandbox/credential-masks.js";
import { CREDENTIAL_PATHS } from "../../../src/adapters/sandbox/credential-paths.js";

const KEY = "sk-proj-test-0123456789abcdef";

describe.skipIf(process.platform === "win32")("credentialMasks", () => {
  let home: string;
  let workspace: string;

  beforeEach(() => {
    home = mkdtempSync(join(realpathSync(tmpdir()), "masks-home-"));
    workspace = join(home, "project");
    mkdirSync(workspace);
  });

  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
  });

  it("masks the credentials that exist, directories and files apart, at their real paths", () => {
    mkdirSync(join(home, ".ssh"));
    mkdirSync(join(home, ".config", "gh"), { recursive: true });
    mkdirSync(join(home, ".docker"));
    writeFileSync(join(home, ".docker", "config.json"), "{}");
    writeFileSync(join(home, ".netrc"), "machine x password y");
    mkdirSync(join(home, "keys"));
    symlinkSync(join(home, "keys"), join(home, ".aws"));
    expect(credentialMasks(home, [], workspace)).toEqual({
      directories: [join(home, ".ssh"), join(home, "keys"), join(home, ".config", "gh")],
      files: [join(home, ".docker", "config.json"), join(home, ".netrc")],
    });
  });

  it("masks shell start-up files, histories, session variables and other agents' stores", () => {
    writeFileSync(join(home, ".bashrc"), `export OPENAI_API_KEY=${KEY}\n`);
    writeFileSync(join(home, ".zshenv"), `export OPENAI_API_KEY=${KEY}\n`);
    writeFileSync(join(home, ".bash_history"), `curl -H "Authorization: Bearer ${KEY}"\n`);
    writeFileSync(join(home, ".env"), `OPENAI_API_KEY=${KEY}\n`);
    mkdirSync(join(home, ".config", "fish"), { recursive: true });
    mkdirSync(join(home, ".local", "share", "fish"), { recursive: true });
    mkdirSync(join(home, ".codex"));
    writeFileSync(join(home, ".codex", "auth.json"), `{"OPENAI_API_KEY":"${KEY}"}`);
    writeFileSync(join(home, ".claude.json"), "{}");
    writeFileSync(join(home, ".vimrc"), "set number\n");
    expect(credentialMasks(home, [], workspace)).toEqual({
      directories: [
        join(home, ".config", "fish"),
        join(home, ".local", "share", "fish"),
        join(home, ".codex"),
      ],
      files: [
        join(home, ".bashrc"),
        join(home, ".zshenv"),
        join(home, ".env"),
        join(home, ".bash_history"),
        join(home, ".claude.json"),
      ],
    });
  });

  it("masks a linked start-up file where it leads; skips a link to a device or to nothing", () => {
    mkdirSync(join(home, "dotfiles"));
    writeFileSync(join(home, "dotfiles", "bashrc"), `export OPENAI_API_KEY=${KEY}\n`);
    symlinkSync(join(home, "dotfiles", "bashrc"), join(home, ".bashrc"));
    symlinkSync("/dev/null", join(home, ".bash_history"));
    symlinkSync(join(home, "missing"), join(home, ".zshrc"));
    expect(credentialMasks(home, [], workspace)).toEqual({
      directories: [],
      files: [join(home, "dotfiles", "bashrc")],
    });
    // Un-masked by its name in the home, the link's target is left readable too.
    expect(credentialMasks(home, [".bashrc"], workspace)).toEqual({ directories: [], files: [] });
  });

  it("lists no path inside another, where its mask would have nothing to land on", () => {
    const nested = CREDENTIAL_PATHS.filter((inner) =>
      CREDENTIAL_PATHS.some((outer) => outer !== inner && isWithinRoot(outer, inner, "linux")),
    );
    expect(nested).toEqual([]);
    expect(new Set(CREDENTIAL_PATHS).size).toBe(CREDENTIAL_PATHS.length);
  });

  it("masks what links lead to once, and nothing inside a masked directory: bwrap cannot mount there", () => {
    mkdirSync(join(home, ".ssh"));
    mkdirSync(join(home, ".ssh", "cloud"));
    writeFileSync(join(home, ".ssh", "netrc"), "machine x password y");
    symlinkSync(join(home, ".ssh", "netrc"), join(home, ".netrc"));
    symlinkSync(join(home, ".ssh", "cloud"), join(home, ".aws"));
    symlinkSync(join(home, ".ssh"), join(home, ".kube"));
    expect(credentialMasks(home, [], workspace)).toEqual({
      directories: [join(home, ".ssh")],
      files: [],
    });
  });

  it("leaves un-masked ones readable, and never masks into the workspace", () => {
    writeFileSync(join(home, ".npmrc"), "//registry/:_authToken=x");
    mkdirSync(join(home, ".ssh"));
    symlinkSync(workspace, join(home, ".kube"));
    expect(credentialMasks(home, [".npmrc"], workspace)).toEqual({
      directories: [join(home, ".ssh")],
      files: [],
    });
    expect(credentialMasks(undefined, [], workspace)).toEqual({ directories: [], files: [] });
  });
});
