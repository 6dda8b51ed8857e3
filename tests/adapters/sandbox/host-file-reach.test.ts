/**
 * Which host files a sandboxed command reads as the host has them and cannot change: real paths
 * (links resolved by the caller), checked against the workspace and the sandbox's own mounts.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostFileReach } from "../../../src/adapters/sandbox/index.js";

const INSIDE = "inside the workspace, which commands can change";
const HIDDEN = "not visible in the sandbox";

describe("hostFileReach", () => {
  let base: string;

  beforeEach(() => {
    base = mkdtempSync(join(realpathSync(tmpdir()), "host-file-reach-"));
  });

  afterEach(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it("refuses the workspace (through a link to it too), the private mounts and what is hidden", () => {
    const workspace = join(base, "ws");
    mkdirSync(workspace);
    const linkedWorkspace = join(base, "ws-link");
    symlinkSync(workspace, linkedWorkspace);
    const state = join(base, "state");
    const reach = hostFileReach({
      workspace: linkedWorkspace,
      home: undefined,
      hiddenPaths: ["/var/lib/agent-state"],
      unmasked: [],
    });
    expect(reach(join(workspace, "ca.pem"))).toBe(INSIDE);
    expect(reach(workspace)).toBe(INSIDE);
    expect(reach(join(state, "ca.pem"))).toBe(HIDDEN); // under /tmp
    expect(reach("/run/ca.pem")).toBe(HIDDEN);
    expect(reach("/dev/fd/63")).toBe(HIDDEN);
    expect(reach("/proc/self/fd/3")).toBe(HIDDEN);
    expect(reach("/var/lib/agent-state/ca.pem")).toBe(HIDDEN);
    expect(reach("/etc/ssl/certs/ca-certificates.crt")).toBeUndefined();
    expect(reach("/tmpfoo/ca.pem")).toBeUndefined();
  });

  it("refuses a credential the sandbox masks, unless the person un-masked it", () => {
    // Outside /tmp, which the sandbox covers whole: the masks are what is tested here.
    const home = mkdtempSync("/var/tmp/host-file-reach-home-");
    try {
      mkdirSync(join(home, ".ssh"));
      writeFileSync(join(home, ".npmrc"), "");
      writeFileSync(join(home, "ca.pem"), "");
      const options = { workspace: join(base, "ws"), home, hiddenPaths: [] };
      const reach = hostFileReach({ ...options, unmasked: [] });
      expect(reach(join(home, ".ssh", "ca.pem"))).toBe(HIDDEN);
      expect(reach(join(home, ".npmrc"))).toBe(HIDDEN);
      expect(reach(join(home, "ca.pem"))).toBeUndefined();
      const unmasked = hostFileReach({ ...options, unmasked: [".npmrc"] });
      expect(unmasked(join(home, ".npmrc"))).toBeUndefined();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
