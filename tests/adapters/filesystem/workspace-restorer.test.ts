/**
 * The file tools' writes as `/undo` sees them, on a real directory: the before-image is handed
 * over while the file still holds its old bytes (so a crash after the record leaves them there),
 * and the restorer puts bytes back only where the recorded name still leads, inside the workspace.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeWorkspaceFileSystem } from "../../../src/adapters/filesystem/node-filesystem.js";
import { NodeWorkspaceRestorer } from "../../../src/adapters/filesystem/workspace-restorer.js";
import type { PlannedWrite, WriteRecorder } from "../../../src/core/ports/filesystem.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace();
});
afterEach(() => temp.cleanup());

const sha256 = (bytes: Uint8Array | string): string =>
  createHash("sha256").update(bytes).digest("hex");

/** Records what it is told, and what the file held at the moment it was told. */
function recorder(path: string) {
  const seen: { planned: PlannedWrite; onDisk: string | undefined }[] = [];
  const written: string[] = [];
  const port: WriteRecorder = {
    beforeWrite: async (planned) => {
      seen.push({ planned, onDisk: await readFile(path, "utf8").catch(() => undefined) });
    },
    afterWrite: (file, hash) => {
      written.push(`${file} ${hash}`);
      return Promise.resolve();
    },
  };
  return { port, seen, written };
}

describe("the file tools' before-images", () => {
  it("are handed over before the bytes land, with the exact bytes, BOM and CRLF kept", async () => {
    const original = "\uFEFFline one\r\nclé 🙂\r\n";
    const path = join(temp.ws, "notes.txt");
    await writeFile(path, original);
    const files = new NodeWorkspaceFileSystem(temp.ws);
    const edit = recorder(path);
    await files.editFile(
      "notes.txt",
      { oldString: "clé", newString: "key", replaceAll: false },
      edit.port,
    );
    expect(edit.seen).toHaveLength(1);
    const [{ planned, onDisk } = { planned: undefined, onDisk: undefined }] = edit.seen;
    expect(onDisk).toBe(original);
    expect(planned?.file).toBe("notes.txt");
    expect(Buffer.from(planned?.before?.bytes ?? [])).toEqual(Buffer.from(original));
    expect(planned?.before?.sha256).toBe(sha256(original));
    const now = await readFile(path);
    expect(planned?.afterSha256).toBe(sha256(now));
    expect(edit.written).toEqual([`notes.txt ${sha256(now)}`]);
  });

  it("say a new file did not exist, and nothing lands if the record fails", async () => {
    const files = new NodeWorkspaceFileSystem(temp.ws);
    const created = recorder(join(temp.ws, "new", "a.txt"));
    await files.writeFile("new/a.txt", "hello", created.port);
    expect(created.seen[0]?.planned.before).toBeUndefined();
    expect(created.seen[0]?.planned.file).toBe("new/a.txt");
    // The folder the write made for it is recorded; one that was there is not.
    expect(created.seen[0]?.planned.madeFolders).toEqual(["new"]);
    const deeper = recorder(join(temp.ws, "new", "b", "c", "d.txt"));
    await files.writeFile("new/b/c/d.txt", "x", deeper.port);
    expect(deeper.seen[0]?.planned.madeFolders).toEqual(["new/b", "new/b/c"]);
    const flat = recorder(join(temp.ws, "top.txt"));
    await files.writeFile("top.txt", "x", flat.port);
    expect(flat.seen[0]?.planned.madeFolders).toBeUndefined();
    const failing: WriteRecorder = {
      beforeWrite: () => Promise.reject(new Error("journal full")),
      afterWrite: () => Promise.resolve(),
    };
    await expect(files.writeFile("new/a.txt", "changed", failing)).rejects.toThrow("journal full");
    expect(await readFile(join(temp.ws, "new", "a.txt"), "utf8")).toBe("hello");
  });
});

describe("NodeWorkspaceRestorer", () => {
  it("puts the bytes back only while the file holds what the call wrote", async () => {
    const path = join(temp.ws, "a.txt");
    await writeFile(path, "after");
    const restorer = new NodeWorkspaceRestorer(temp.ws);
    expect(await restorer.current("a.txt")).toEqual({ kind: "file", sha256: sha256("after") });
    await expect(restorer.restore("a.txt", Buffer.from("x"), sha256("other"))).rejects.toThrow(
      "a.txt changed while it was being undone",
    );
    expect(await readFile(path, "utf8")).toBe("after");
    await restorer.restore("a.txt", Buffer.from("before"), sha256("after"));
    expect(await readFile(path, "utf8")).toBe("before");
  });

  it("refuses a name that now leads outside through a planted link, and changes nothing there", async () => {
    await mkdir(join(temp.ws, "sub"));
    await writeFile(join(temp.ws, "sub", "a.txt"), "after");
    // The directory the call wrote in is swapped for a link to one outside holding the same bytes.
    await rename(join(temp.ws, "sub"), join(temp.evil, "sub"));
    await symlink(join(temp.evil, "sub"), join(temp.ws, "sub"));
    const restorer = new NodeWorkspaceRestorer(temp.ws);
    const current = await restorer.current("sub/a.txt");
    expect(current.kind).toBe("refused");
    await expect(
      restorer.restore("sub/a.txt", Buffer.from("before"), sha256("after")),
    ).rejects.toThrow();
    await expect(restorer.remove("sub/a.txt", sha256("after"))).rejects.toThrow();
    expect(await readFile(join(temp.evil, "sub", "a.txt"), "utf8")).toBe("after");
  });

  it("removes a made folder only while it is empty and still a folder at that name", async () => {
    await mkdir(join(temp.ws, "made", "full"), { recursive: true });
    await writeFile(join(temp.ws, "made", "full", "kept.txt"), "x");
    await mkdir(join(temp.evil, "empty"));
    await symlink(join(temp.evil, "empty"), join(temp.ws, "linked"));
    const restorer = new NodeWorkspaceRestorer(temp.ws);
    expect(await restorer.removeEmptyFolder("made/full")).toBe(false);
    expect(await restorer.removeEmptyFolder("linked")).toBe(false);
    expect(await restorer.removeEmptyFolder("missing")).toBe(false);
    expect(await restorer.removeEmptyFolder("../outside")).toBe(false);
    await rm(join(temp.ws, "made", "full", "kept.txt"));
    expect(await restorer.removeEmptyFolder("made/full")).toBe(true);
    expect(existsSync(join(temp.ws, "made", "full"))).toBe(false);
    expect(existsSync(join(temp.evil, "empty"))).toBe(true);
  });

  it("refuses a link inside the workspace at the file's own name", async () => {
    await writeFile(join(temp.ws, "real.txt"), "after");
    await symlink("real.txt", join(temp.ws, "a.txt"));
    const restorer = new NodeWorkspaceRestorer(temp.ws);
    expect(await restorer.current("a.txt")).toEqual({
      kind: "refused",
      reason: "it now leads to another file through a link, which an undo does not follow",
    });
    await expect(restorer.remove("a.txt", sha256("after"))).rejects.toThrow();
    expect(await readFile(join(temp.ws, "real.txt"), "utf8")).toBe("after");
  });
});
