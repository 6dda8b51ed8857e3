/**
 * The one way the file tools and `/undo` open a resolved file to read it, on a real directory:
 * what each refuses, with the code and words the model reads, and the one difference between them
 * (a second name refuses a read shown to the model, not a before-image).
 */
import { execFileSync } from "node:child_process";
import { link, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openExisting } from "../../../src/adapters/filesystem/before-image.js";
import { openCheckedForReading } from "../../../src/adapters/filesystem/open-for-reading.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace();
});
afterEach(() => temp.cleanup());

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return `${code}: ${message}`;
  }
  return "opened";
}

describe("openCheckedForReading", () => {
  it("opens a regular file with one name and reads its bytes", async () => {
    const file = join(temp.ws, "a.txt");
    await writeFile(file, "café");
    const handle = await openCheckedForReading(file, "a.txt", { oneName: true });
    try {
      expect((await handle.readFile()).toString("utf8")).toBe("café");
    } finally {
      await handle.close();
    }
  });

  it("refuses a link, a directory, a FIFO and a missing file, whatever oneName says", async () => {
    await writeFile(join(temp.evil, "secret"), "outside");
    await symlink(join(temp.evil, "secret"), join(temp.ws, "link"));
    await mkdir(join(temp.ws, "dir"));
    execFileSync("mkfifo", [join(temp.ws, "fifo")]);
    for (const oneName of [true, false]) {
      const open = (name: string) =>
        refusal(openCheckedForReading(join(temp.ws, name), name, { oneName }));
      expect(await open("link")).toBe(
        "path_escape: path ends in a symbolic link that is not followed here: link",
      );
      expect(await open("dir")).toBe("is_directory: dir is a directory, not a file");
      expect(await open("fifo")).toBe("invalid_path: fifo is not a regular file");
      expect(await open("gone")).toBe("file_not_found: file not found: gone");
    }
  });

  it("refuses a file with a second name only when asked to (read_file), not for a before-image", async () => {
    await writeFile(join(temp.evil, "outside"), "outside bytes");
    await link(join(temp.evil, "outside"), join(temp.ws, "twin"));
    const target = join(temp.ws, "twin");
    expect(await refusal(openCheckedForReading(target, "twin", { oneName: true }))).toMatch(
      /^hard_link: twin has 2 hard links; another name for the same file may be outside the workspace/,
    );
    const handle = await openExisting(target, "twin");
    expect(handle).toBeDefined();
    await handle?.close();
    expect(await readFile(join(temp.evil, "outside"), "utf8")).toBe("outside bytes");
  });

  it("gives a before-image nothing for a missing file, and the same refusals otherwise", async () => {
    expect(await openExisting(join(temp.ws, "new.txt"), "new.txt")).toBeUndefined();
    await mkdir(join(temp.ws, "dir"));
    expect(await refusal(openExisting(join(temp.ws, "dir"), "dir"))).toBe(
      "is_directory: dir is a directory, not a file",
    );
  });
});
