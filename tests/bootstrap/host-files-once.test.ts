/**
 * The host's later-loaded paths are worked out at the first ask, not as a run is composed (every
 * link of every folder on PATH is followed: tens of ms no first request should wait for), and
 * once per run: what the first ask found is what every later write and command is checked against.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostFilesOnce, sandboxHostFiles } from "../../src/bootstrap/host-files.js";
import type { Host } from "../../src/bootstrap/host.js";

let base: string;
let ws: string;
let bin: string;
let host: Host;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "host-files-once-")));
  ws = join(base, "ws");
  bin = join(base, "bin");
  await mkdir(ws);
  await mkdir(bin);
  await mkdir(join(base, "home"));
  host = { env: { HOME: join(base, "home"), PATH: bin }, platform: "linux" };
});
afterEach(() => rm(base, { recursive: true, force: true }));

const pathsOf = (list: readonly { path: string }[]) => list.map(({ path }) => path);

describe("hostFilesOnce", () => {
  it("looks at PATH at the first ask, not when made, and keeps that answer for the run", async () => {
    await writeFile(join(ws, "tool-a"), "#!/bin/sh\n");
    await writeFile(join(ws, "tool-b"), "#!/bin/sh\n");
    const source = hostFilesOnce(host, ws);
    // Made after the source: only a lazy source sees it.
    await symlink(join(ws, "tool-a"), join(bin, "tool-a"));
    const first = source();
    expect(pathsOf(first)).toContain(join(ws, "tool-a"));
    await symlink(join(ws, "tool-b"), join(bin, "tool-b"));
    expect(source()).toBe(first);
    expect(pathsOf(source())).not.toContain(join(ws, "tool-b"));
  });

  it("gives the sandbox, at each command, what to bind read-only and what to keep as it is", async () => {
    await writeFile(join(ws, "tool-a"), "#!/bin/sh\n");
    await symlink(join(ws, "tool-a"), join(bin, "tool-a"));
    await symlink(join(ws, "not-yet"), join(bin, "not-yet"));
    const forSandbox = sandboxHostFiles(ws, hostFilesOnce(host, ws));
    const sorted = (paths: readonly string[]) => [...paths].sort();
    const both = [join(ws, "not-yet"), join(ws, "tool-a")];
    const first = forSandbox();
    expect(first.readOnly).toEqual([join(ws, "tool-a")]);
    // Made or not, each is watched; the one not made yet is kept from being made.
    expect(sorted(first.keepUnchanged)).toEqual(both);
    // Made since (say, by the person): the next command binds it read-only too.
    await writeFile(join(ws, "not-yet"), "#!/bin/sh\n");
    const next = forSandbox();
    expect(sorted(next.readOnly)).toEqual(both);
    expect(sorted(next.keepUnchanged)).toEqual(both);
  });
});
