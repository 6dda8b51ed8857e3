import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { credentialMasks } from "../../../src/adapters/sandbox/credential-masks.js";

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
