import { execFileSync } from "node:child_process";
import {
  chown,
  lstat,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rm,
  symlink,
  writeFile,
  link,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  probeVerdictPath,
  readProbeVerdict,
  writeProbeVerdict,
  type ProbeVerdict,
} from "../../../src/adapters/state/index.js";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(await realpath(tmpdir()), "probe-verdict-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const posixOnly = process.platform === "win32";
/** chown to another user needs root. */
const IS_ROOT = process.getuid?.() === 0;
const USABLE: ProbeVerdict = { sandboxUsable: true, networkOff: true };
const FELL_BACK: ProbeVerdict = {
  sandboxUsable: false,
  fallbackReason: "The sandbox cannot start: user namespaces are disabled",
  networkOff: false,
};

describe("the remembered sandbox probe verdict", () => {
  it("reads back what was written, under the same fingerprint only", async () => {
    expect(readProbeVerdict(root, "fp-1")).toBeUndefined();
    writeProbeVerdict(root, "fp-1", FELL_BACK);
    expect(readProbeVerdict(root, "fp-1")).toEqual(FELL_BACK);
    expect(readProbeVerdict(root, "fp-2")).toBeUndefined();
    writeProbeVerdict(root, "fp-2", USABLE);
    expect(readProbeVerdict(root, "fp-2")).toEqual(USABLE);
    expect(readProbeVerdict(root, "fp-1")).toEqual(FELL_BACK);
    writeProbeVerdict(root, "fp-1", USABLE);
    expect(readProbeVerdict(root, "fp-1")).toEqual(USABLE);
    if (!posixOnly) expect((await lstat(probeVerdictPath(root))).mode & 0o777).toBe(0o600);
    expect((await readdir(root)).sort()).toEqual(["sandbox-probe.json"]);
  });

  it("keeps the newest eight fingerprints", () => {
    for (let n = 1; n <= 9; n += 1) writeProbeVerdict(root, `fp-${String(n)}`, USABLE);
    writeProbeVerdict(root, "fp-2", FELL_BACK);
    writeProbeVerdict(root, "fp-10", USABLE);
    expect(readProbeVerdict(root, "fp-1")).toBeUndefined();
    expect(readProbeVerdict(root, "fp-3")).toBeUndefined();
    expect(readProbeVerdict(root, "fp-2")).toEqual(FELL_BACK);
    for (let n = 4; n <= 10; n += 1)
      expect(readProbeVerdict(root, `fp-${String(n)}`)).toEqual(USABLE);
  });

  it.each([
    ["not JSON", "{not json"],
    ["another format", JSON.stringify({ format: 2, entries: { fp: USABLE } })],
    [
      "a verdict of the wrong shape",
      JSON.stringify({ format: 1, entries: { fp: { sandboxUsable: true, networkOff: "yes" } } }),
    ],
    ["an array", "[]"],
    ["empty", ""],
  ])("ignores a file that is %s, and replaces it", async (_what, content) => {
    await writeFile(probeVerdictPath(root), content, { mode: 0o600 });
    expect(readProbeVerdict(root, "fp")).toBeUndefined();
    writeProbeVerdict(root, "fp", USABLE);
    expect(readProbeVerdict(root, "fp")).toEqual(USABLE);
  });

  it.skipIf(posixOnly)(
    "ignores a symbolic link and replaces the link, not its target",
    async () => {
      const target = join(root, "elsewhere.json");
      const planted = JSON.stringify({ format: 1, entries: { fp: USABLE } });
      await writeFile(target, planted, { mode: 0o600 });
      await symlink(target, probeVerdictPath(root));
      expect(readProbeVerdict(root, "fp")).toBeUndefined();
      writeProbeVerdict(root, "fp", FELL_BACK);
      expect(await readFile(target, "utf8")).toBe(planted);
      expect((await lstat(probeVerdictPath(root))).isFile()).toBe(true);
      expect(readProbeVerdict(root, "fp")).toEqual(FELL_BACK);
    },
  );

  it.skipIf(posixOnly)("ignores a FIFO without waiting on it, and replaces it", async () => {
    execFileSync("mkfifo", [probeVerdictPath(root)]);
    expect(readProbeVerdict(root, "fp")).toBeUndefined();
    writeProbeVerdict(root, "fp", USABLE);
    expect((await lstat(probeVerdictPath(root))).isFile()).toBe(true);
    expect(readProbeVerdict(root, "fp")).toEqual(USABLE);
  });

  it.skipIf(posixOnly)("ignores a file with a second name", async () => {
    writeProbeVerdict(root, "fp", USABLE);
    await link(probeVerdictPath(root), join(root, "second-name"));
    expect(readProbeVerdict(root, "fp")).toBeUndefined();
  });

  it.skipIf(posixOnly || !IS_ROOT)(
    `ignores a file someone else owns${IS_ROOT ? "" : " (skipped: needs root to chown)"}`,
    async () => {
      writeProbeVerdict(root, "fp", USABLE);
      await chown(probeVerdictPath(root), 65534, 65534);
      expect(readProbeVerdict(root, "fp")).toBeUndefined();
    },
  );

  it("ignores a file too large to be ours", async () => {
    const padded = JSON.stringify({
      format: 1,
      entries: { fp: { ...FELL_BACK, fallbackReason: "x".repeat(20_000) } },
    });
    await writeFile(probeVerdictPath(root), padded, { mode: 0o600 });
    expect(readProbeVerdict(root, "fp")).toBeUndefined();
  });

  it("a state root that cannot be written loses only the memory", () => {
    expect(() => {
      writeProbeVerdict(join(root, "missing"), "fp", USABLE);
    }).not.toThrow();
    expect(readProbeVerdict(join(root, "missing"), "fp")).toBeUndefined();
  });
});
