import { describe, expect, it } from "vitest";
import { toWorkspaceError } from "../../../src/adapters/filesystem/fs-errors.js";
import { WorkspaceFileError } from "../../../src/core/ports/filesystem.js";

/** A Node system error as fs.promises throws it, naming the absolute host path. */
function systemError(code: string, detail: string, hostPath: string): Error {
  return Object.assign(new Error(`${code}: ${detail}, open '${hostPath}'`), { code });
}

describe("toWorkspaceError", () => {
  it.each([
    ["ENOENT", "file_not_found", "file not found: src/a.ts"],
    ["EISDIR", "is_directory", "src/a.ts is a directory, not a file"],
    ["ENOTDIR", "invalid_path", "a parent of src/a.ts is not a directory"],
    ["ENAMETOOLONG", "invalid_path", "path is too long: src/a.ts"],
  ])("%s becomes %s", (code, domainCode, message) => {
    const mapped = toWorkspaceError(
      systemError(code, "whatever", "/home/me/secret/ws/src/a.ts"),
      "src/a.ts",
    );
    expect(mapped).toBeInstanceOf(WorkspaceFileError);
    expect(mapped).toMatchObject({ code: domainCode, message });
  });

  it.each([
    ["EACCES", "permission denied"],
    ["EROFS", "read-only file system"],
    ["ENOSPC", "no space left on device"],
  ])("%s stays a tool failure but never shows the host path", (code, detail) => {
    const mapped = toWorkspaceError(
      systemError(code, detail, "/home/me/secret/ws/src/a.ts"),
      "src/a.ts",
    );
    expect(mapped).not.toBeInstanceOf(WorkspaceFileError);
    expect(mapped).toMatchObject({ code, message: `${code}: ${detail}: src/a.ts` });
  });

  it("passes an error already in the model's terms through unchanged", () => {
    const refusal = new WorkspaceFileError("path_escape", "the path changed while writing: a.txt");
    expect(toWorkspaceError(refusal, "a.txt")).toBe(refusal);
  });

  it("passes an error without a system code through unchanged", () => {
    const original = new Error("something else");
    expect(toWorkspaceError(original, "a.txt")).toBe(original);
  });
});
