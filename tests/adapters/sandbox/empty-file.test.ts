import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeEmptyFile, MASK_FILE_NAME } from "../../../src/adapters/sandbox/empty-file.js";

const uid = process.getuid?.() ?? 0;

describe.skipIf(process.platform === "win32")("makeEmptyFile", () => {
  let temp: string;
  let shared: string;

  beforeEach(() => {
    temp = mkdtempSync(join(realpathSync(tmpdir()), "empty-file-"));
    shared = join(temp, `agent-sandbox-${String(uid)}`);
  });

  afterEach(() => {
    rmSync(temp, { recursive: true, force: true });
  });

  it("makes one empty read-only file per user and reuses it: runs leave nothing new behind", () => {
    const first = makeEmptyFile(uid, temp);
    expect(first).toBe(join(shared, MASK_FILE_NAME));
    expect(makeEmptyFile(uid, temp)).toBe(first);
    expect(readdirSync(temp)).toEqual([`agent-sandbox-${String(uid)}`]);
    expect(readFileSync(first, "utf8")).toBe("");
    // 0o444 less this process's umask (0o400 under umask 077): what a file made 0o444 here gets.
    const probe = join(temp, "probe");
    writeFileSync(probe, "", { mode: 0o444 });
    expect(lstatSync(first).mode & 0o777).toBe(lstatSync(probe).mode & 0o777);
    expect(lstatSync(first).mode & 0o222).toBe(0);
    expect(lstatSync(shared).mode & 0o777).toBe(0o700);
  });

  it.each([
    [
      "a directory others can write",
      () => {
        mkdirSync(shared);
        chmodSync(shared, 0o777);
      },
    ],
    [
      "a file that is not empty",
      () => {
        mkdirSync(shared, { mode: 0o700 });
        writeFileSync(join(shared, MASK_FILE_NAME), "planted");
      },
    ],
    [
      "a directory of another user",
      () => {
        mkdirSync(shared, { mode: 0o700 });
      },
      uid + 1,
    ],
  ])("leaves %s alone and uses a fresh private one", (_what, plant, asUid = uid) => {
    plant();
    const other = asUid === uid ? shared : join(temp, `agent-sandbox-${String(asUid)}`);
    if (other !== shared) mkdirSync(other, { mode: 0o700 });
    const fresh = makeEmptyFile(asUid, temp);
    expect(fresh).not.toBe(join(other, MASK_FILE_NAME));
    expect(fresh.startsWith(join(temp, "agent-sandbox-"))).toBe(true);
    expect(readFileSync(fresh, "utf8")).toBe("");
  });
});
