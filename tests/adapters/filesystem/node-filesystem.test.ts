import { spawnSync } from "node:child_process";
import {
  chmod,
  lstat,
  mkdir,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CAN_SYMLINK_FILES, FILE_SYMLINKS_REASON } from "../../support/platform.js";
import { writeFileAtomically } from "../../../src/adapters/filesystem/atomic-write.js";
import {
  GLOB_RESULT_LIMIT,
  NodeWorkspaceFileSystem,
  READ_LIMIT_BYTES,
} from "../../../src/adapters/filesystem/node-filesystem.js";
import { safePath } from "../../../src/adapters/filesystem/safe-path.js";
import { WorkspaceFileError } from "../../../src/core/ports/filesystem.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

const onWindows = process.platform === "win32";

let temp: TempWorkspace;
let files: NodeWorkspaceFileSystem;

beforeEach(async () => {
  temp = await makeTempWorkspace();
  files = new NodeWorkspaceFileSystem(temp.ws);
  await writeFile(join(temp.evil, "secret.txt"), "secret\n");
});
afterEach(() => temp.cleanup());

/** The domain error a promise rejects with, as plain data; anything else is returned as is. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error instanceof WorkspaceFileError
      ? { code: error.code, message: error.message }
      : error;
  }
  return "resolved";
}

async function entries(directory: string): Promise<string[]> {
  return (await readdir(directory)).sort();
}

/** A read's expected result: the text, its 1-based first and last lines, the file's line count. */
function textWindow(
  text: string | undefined,
  firstLine: number,
  lastLine: number,
  totalLines: number,
) {
  return { text, firstLine, lastLine, totalLines };
}

describe("readFile", () => {
  it("returns the whole text with its line count", async () => {
    await writeFile(join(temp.ws, "a.txt"), "one\ntwo\nthree\n");
    await expect(files.readFile("a.txt")).resolves.toEqual(
      textWindow("one\ntwo\nthree\n", 1, 3, 3),
    );
  });

  it("counts a last line without a newline, and an empty file as no lines", async () => {
    await writeFile(join(temp.ws, "a.txt"), "one\ntwo");
    await writeFile(join(temp.ws, "empty.txt"), "");
    await expect(files.readFile("a.txt")).resolves.toEqual(textWindow("one\ntwo", 1, 2, 2));
    await expect(files.readFile("empty.txt")).resolves.toEqual(textWindow("", 1, 0, 0));
  });

  it("returns a line window by offset and limit", async () => {
    await writeFile(join(temp.ws, "a.txt"), "1\n2\n3\n4\n5\n");
    await expect(files.readFile("a.txt", { offset: 2, limit: 2 })).resolves.toEqual(
      textWindow("2\n3\n", 2, 3, 5),
    );
    await expect(files.readFile("a.txt", { offset: 4 })).resolves.toEqual(
      textWindow("4\n5\n", 4, 5, 5),
    );
    await expect(files.readFile("a.txt", { offset: 9, limit: 3 })).resolves.toEqual(
      textWindow("", 9, 5, 5),
    );
  });

  it("drops a UTF-8 BOM and keeps CRLF as it is", async () => {
    await writeFile(join(temp.ws, "bom.txt"), "\uFEFFa\r\nb\r\n");
    await expect(files.readFile("bom.txt")).resolves.toEqual(textWindow("a\r\nb\r\n", 1, 2, 2));
  });

  it("refuses a file over the read limit without a window, and reads it in windows", async () => {
    const line = `${"x".repeat(99)}\n`;
    const lineCount = Math.ceil((READ_LIMIT_BYTES + 1) / line.length) + 10;
    const lines = Array.from(
      { length: lineCount },
      (_, index) => `${String(index + 1).padStart(99, "0")}\n`,
    );
    await writeFile(join(temp.ws, "big.txt"), lines.join(""));
    const size = lineCount * 100;
    await expect(failure(files.readFile("big.txt"))).resolves.toEqual({
      code: "file_too_large",
      message:
        `big.txt is ${size} bytes, over the 262144-byte read limit; read it in parts with ` +
        "offset and limit (line numbers, from 1), e.g. offset 1 and limit 1000",
    });
    await expect(files.readFile("big.txt", { offset: lineCount, limit: 5 })).resolves.toEqual(
      textWindow(lines[lineCount - 1], lineCount, lineCount, lineCount),
    );
    await expect(failure(files.readFile("big.txt", { offset: 1 }))).resolves.toEqual({
      code: "file_too_large",
      message:
        "the requested lines of big.txt are over the 262144-byte read limit; ask for fewer " +
        "lines with a smaller limit",
    });
  });

  it("refuses a file with NUL bytes as binary, wherever the NUL is", async () => {
    await writeFile(join(temp.ws, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    const late = Buffer.concat([Buffer.from("text\n".repeat(30_000)), Buffer.from([0])]);
    await writeFile(join(temp.ws, "late.bin"), late);
    const binary = (path: string) => ({
      code: "binary_file",
      message: `${path} looks binary (it contains NUL bytes); only UTF-8 text files can be read`,
    });
    await expect(failure(files.readFile("image.png"))).resolves.toEqual(binary("image.png"));
    await expect(failure(files.readFile("late.bin", { offset: 1, limit: 1 }))).resolves.toEqual(
      binary("late.bin"),
    );
  });

  it("maps missing files and directories to their codes", async () => {
    await mkdir(join(temp.ws, "src"));
    await expect(failure(files.readFile("missing.txt"))).resolves.toEqual({
      code: "file_not_found",
      message: "file not found: missing.txt",
    });
    await expect(failure(files.readFile("src"))).resolves.toEqual({
      code: "is_directory",
      message: "src is a directory, not a file",
    });
    await writeFile(join(temp.ws, "file.txt"), "x");
    await expect(failure(files.readFile("file.txt/child"))).resolves.toEqual({
      code: "invalid_path",
      message: "a parent of file.txt/child is not a directory",
    });
  });

  it.skipIf(!CAN_SYMLINK_FILES)(
    `refuses a symlinked directory and a symlinked file that point outside ${FILE_SYMLINKS_REASON}`,
    async () => {
      await symlink(temp.evil, join(temp.ws, "linked-dir"), "junction");
      await symlink(join(temp.evil, "secret.txt"), join(temp.ws, "linked.txt"));
      await expect(failure(files.readFile("linked-dir/secret.txt"))).resolves.toEqual({
        code: "path_escape",
        message: "path resolves outside the workspace: linked-dir/secret.txt",
      });
      await expect(failure(files.readFile("linked.txt"))).resolves.toEqual({
        code: "path_escape",
        message: "path resolves outside the workspace: linked.txt",
      });
    },
  );

  it.skipIf(onWindows)("refuses a FIFO without blocking on it (POSIX only: mkfifo)", async () => {
    const made = spawnSync("mkfifo", [join(temp.ws, "pipe")]);
    expect(made.status).toBe(0);
    await expect(failure(files.readFile("pipe"))).resolves.toEqual({
      code: "invalid_path",
      message: "pipe is not a regular file",
    });
  });
});

describe("writeFile", () => {
  it("creates the file and its parent directories and returns the UTF-8 byte count", async () => {
    await expect(files.writeFile("deep/er/note.txt", "héllo 中文\n")).resolves.toBe(14);
    await expect(readFile(join(temp.ws, "deep/er/note.txt"), "utf8")).resolves.toBe("héllo 中文\n");
    // No temporary file is left beside it.
    await expect(entries(join(temp.ws, "deep/er"))).resolves.toEqual(["note.txt"]);
  });

  it.skipIf(onWindows)("keeps an existing file's mode (POSIX only: permission bits)", async () => {
    const target = join(temp.ws, "run.sh");
    await writeFile(target, "old\n");
    await chmod(target, 0o751);
    await files.writeFile("run.sh", "#!/bin/sh\n");
    expect((await stat(target)).mode & 0o7777).toBe(0o751);
    await expect(readFile(target, "utf8")).resolves.toBe("#!/bin/sh\n");
  });

  it.skipIf(onWindows)(
    "drops setuid, setgid and sticky bits when it replaces a file (POSIX only: permission bits)",
    async () => {
      const target = join(temp.ws, "tool");
      await writeFile(target, "old\n");
      await chmod(target, 0o7755);
      await files.writeFile("tool", "#!/bin/sh\nid\n");
      expect((await stat(target)).mode & 0o7777).toBe(0o755);
      await expect(readFile(target, "utf8")).resolves.toBe("#!/bin/sh\nid\n");
    },
  );

  it.skipIf(!CAN_SYMLINK_FILES)(
    `refuses to write through a symlinked file or directory that points outside ${FILE_SYMLINKS_REASON}`,
    async () => {
      await symlink(join(temp.evil, "secret.txt"), join(temp.ws, "linked.txt"));
      await symlink(temp.evil, join(temp.ws, "linked-dir"), "junction");
      await expect(failure(files.writeFile("linked.txt", "pwned"))).resolves.toEqual({
        code: "path_escape",
        message: "path resolves outside the workspace: linked.txt",
      });
      await expect(failure(files.writeFile("linked-dir/new.txt", "pwned"))).resolves.toEqual({
        code: "path_escape",
        message: "path resolves outside the workspace: linked-dir/new.txt",
      });
      await expect(failure(files.writeFile("linked-dir/sub/new.txt", "pwned"))).resolves.toEqual({
        code: "path_escape",
        message: "path resolves outside the workspace: linked-dir/sub/new.txt",
      });
      await expect(readFile(join(temp.evil, "secret.txt"), "utf8")).resolves.toBe("secret\n");
      await expect(entries(temp.evil)).resolves.toEqual(["secret.txt"]);
    },
  );

  it.skipIf(onWindows)(
    "refuses a dangling link to outside and creates nothing there (POSIX only: dangling symlinks)",
    async () => {
      await symlink(join(temp.evil, "planted.txt"), join(temp.ws, "dangling.txt"));
      await expect(failure(files.writeFile("dangling.txt", "pwned"))).resolves.toEqual({
        code: "path_escape",
        message: "path resolves outside the workspace: dangling.txt",
      });
      await expect(entries(temp.evil)).resolves.toEqual(["secret.txt"]);
    },
  );

  it("refuses directories, the workspace itself, and a file used as a directory", async () => {
    await mkdir(join(temp.ws, "src"));
    await writeFile(join(temp.ws, "file.txt"), "x");
    await expect(failure(files.writeFile("src", "x"))).resolves.toEqual({
      code: "is_directory",
      message: "src is a directory, not a file",
    });
    await expect(failure(files.writeFile(".", "x"))).resolves.toEqual({
      code: "is_directory",
      message: ". is a directory, not a file",
    });
    await expect(failure(files.writeFile("file.txt/child.txt", "x"))).resolves.toEqual({
      code: "invalid_path",
      message: "a parent of file.txt/child.txt is not a directory",
    });
    await expect(entries(temp.base)).resolves.toEqual(["ws", "ws-evil"]);
  });
});

describe("writes after the check cannot be raced onto a link", () => {
  it.skipIf(!CAN_SYMLINK_FILES)(
    `refuses when the final component became a symlink to outside after safePath ${FILE_SYMLINKS_REASON}`,
    async () => {
      await writeFile(join(temp.ws, "a.txt"), "mine\n");
      const checked = await safePath(temp.ws, "a.txt");
      // The race, made deterministic: the attacker swaps the file for a link after the check.
      await rm(checked);
      await symlink(join(temp.evil, "secret.txt"), checked);
      await expect(
        failure(writeFileAtomically(checked, Buffer.from("pwned"), "a.txt")),
      ).resolves.toEqual({
        code: "path_escape",
        message: "path ends in a symbolic link that is not followed here: a.txt",
      });
      await expect(readFile(join(temp.evil, "secret.txt"), "utf8")).resolves.toBe("secret\n");
      expect((await lstat(checked)).isSymbolicLink()).toBe(true);
      await expect(entries(temp.ws)).resolves.toEqual(["a.txt"]);
    },
  );

  it("refuses when a parent directory became a link to outside after safePath", async () => {
    await mkdir(join(temp.ws, "sub"));
    const checked = await safePath(temp.ws, "sub/new.txt");
    await rm(join(temp.ws, "sub"), { recursive: true });
    await symlink(temp.evil, join(temp.ws, "sub"), "junction");
    await expect(
      failure(writeFileAtomically(checked, Buffer.from("pwned"), "sub/new.txt")),
    ).resolves.toEqual({
      code: "path_escape",
      message: "a directory on the path changed while writing: sub/new.txt",
    });
    await expect(entries(temp.evil)).resolves.toEqual(["secret.txt"]);
  });
});

describe.skipIf(onWindows)(
  "an interrupted write leaves the old content (POSIX only: ulimit -f)",
  () => {
    it("keeps the old bytes and no temporary file when the disk refuses the write", () => {
      const target = join(temp.ws, "data.txt");
      const script = join(temp.base, "write.mts");
      const adapter = pathToFileURL(resolve("src/adapters/filesystem/node-filesystem.ts")).href;
      return (async () => {
        await writeFile(target, "old content\n");
        await writeFile(
          script,
          [
            `import { NodeWorkspaceFileSystem } from ${JSON.stringify(adapter)};`,
            `const files = new NodeWorkspaceFileSystem(${JSON.stringify(temp.ws)});`,
            `try { await files.writeFile("data.txt", "new ".repeat(100_000)); console.log("wrote"); }`,
            `catch (error) { console.log(String((error as { code?: unknown }).code)); }`,
          ].join("\n"),
        );
        // A 64 KB file-size limit makes the kernel refuse the write part way (EFBIG), like a full disk.
        const run = spawnSync(
          "bash",
          ["-c", 'ulimit -f 64 && exec "$0" --import tsx "$1"', process.execPath, script],
          { encoding: "utf8" },
        );
        expect(run.stdout).toBe("EFBIG\n");
        await expect(readFile(target, "utf8")).resolves.toBe("old content\n");
        await expect(entries(temp.ws)).resolves.toEqual(["data.txt"]);
      })();
    });
  },
);

describe("editFile", () => {
  it("replaces one exact occurrence", async () => {
    await writeFile(join(temp.ws, "a.ts"), "const a = 1;\nconst b = 2;\n");
    await expect(
      files.editFile("a.ts", { oldString: "b = 2", newString: "b = 3", replaceAll: false }),
    ).resolves.toBe(1);
    await expect(readFile(join(temp.ws, "a.ts"), "utf8")).resolves.toBe(
      "const a = 1;\nconst b = 3;\n",
    );
  });

  it("previews exactly what editFile writes (CRLF, BOM) and nothing for an edit that fails", async () => {
    const target = join(temp.ws, "win.txt");
    await writeFile(target, "\uFEFFline one\r\nline two\r\nline three\r\n");
    const edit = { oldString: "line one\nline two", newString: "first\nsecond", replaceAll: false };
    await expect(files.previewEdit("win.txt", edit)).resolves.toEqual({
      before: "\uFEFFline one\r\nline two\r\nline three\r\n",
      after: "\uFEFFfirst\r\nsecond\r\nline three\r\n",
    });
    await expect(
      files.previewEdit("win.txt", { ...edit, oldString: "absent" }),
    ).resolves.toBeUndefined();
    // Nothing was written by either preview.
    await expect(readFile(target, "utf8")).resolves.toBe(
      "\uFEFFline one\r\nline two\r\nline three\r\n",
    );
  });

  it("keeps CRLF endings when the model sends \\n, and keeps a UTF-8 BOM", async () => {
    const target = join(temp.ws, "win.txt");
    await writeFile(target, "\uFEFFline one\r\nline two\r\nline three\r\n");
    await expect(
      files.editFile("win.txt", {
        oldString: "line one\nline two",
        newString: "first\nsecond\nthird",
        replaceAll: false,
      }),
    ).resolves.toBe(1);
    await expect(readFile(target)).resolves.toEqual(
      Buffer.from("\uFEFFfirst\r\nsecond\r\nthird\r\nline three\r\n", "utf8"),
    );
  });

  it("inserts replacement text literally, $& and $1 included", async () => {
    await writeFile(join(temp.ws, "a.txt"), "price: X\n");
    await files.editFile("a.txt", { oldString: "X", newString: "$& $1 $$", replaceAll: false });
    await expect(readFile(join(temp.ws, "a.txt"), "utf8")).resolves.toBe("price: $& $1 $$\n");
  });

  it("says no match, or how many matches when ambiguous, and replaces all on request", async () => {
    await writeFile(join(temp.ws, "a.txt"), "x x x\n");
    await expect(
      failure(files.editFile("a.txt", { oldString: "y", newString: "z", replaceAll: false })),
    ).resolves.toEqual({
      code: "edit_no_match",
      message:
        "old_string was not found in a.txt; read the file and copy the text exactly, including " +
        "whitespace and indentation",
    });
    await expect(
      failure(files.editFile("a.txt", { oldString: "x", newString: "z", replaceAll: false })),
    ).resolves.toEqual({
      code: "edit_ambiguous",
      message:
        "old_string occurs 3 times in a.txt; add surrounding lines to make it unique, or set " +
        "replace_all to true to replace every occurrence",
    });
    await expect(readFile(join(temp.ws, "a.txt"), "utf8")).resolves.toBe("x x x\n");
    await expect(
      files.editFile("a.txt", { oldString: "x", newString: "z", replaceAll: true }),
    ).resolves.toBe(3);
    await expect(readFile(join(temp.ws, "a.txt"), "utf8")).resolves.toBe("z z z\n");
  });

  it.skipIf(onWindows)("keeps the file's mode (POSIX only: permission bits)", async () => {
    const target = join(temp.ws, "tool.sh");
    await writeFile(target, "echo old\n");
    await chmod(target, 0o700);
    await files.editFile("tool.sh", { oldString: "old", newString: "new", replaceAll: false });
    expect((await stat(target)).mode & 0o7777).toBe(0o700);
  });

  it.skipIf(!CAN_SYMLINK_FILES)(
    `refuses binary and non-UTF-8 files, missing files and links to outside ${FILE_SYMLINKS_REASON}`,
    async () => {
      await writeFile(join(temp.ws, "zero.bin"), Buffer.from([0x61, 0x00, 0x62]));
      await writeFile(join(temp.ws, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      await symlink(join(temp.evil, "secret.txt"), join(temp.ws, "linked.txt"));
      const edit = { oldString: "a", newString: "b", replaceAll: false };
      await expect(failure(files.editFile("zero.bin", edit))).resolves.toEqual({
        code: "binary_file",
        message: "zero.bin looks binary (it contains NUL bytes); only UTF-8 text files can be read",
      });
      await expect(failure(files.editFile("latin1.txt", edit))).resolves.toEqual({
        code: "binary_file",
        message: "latin1.txt is not valid UTF-8 text; edit_file only edits UTF-8 text files",
      });
      await expect(failure(files.editFile("missing.txt", edit))).resolves.toEqual({
        code: "file_not_found",
        message: "file not found: missing.txt",
      });
      await expect(
        failure(files.editFile("linked.txt", { ...edit, oldString: "secret" })),
      ).resolves.toEqual({
        code: "path_escape",
        message: "path resolves outside the workspace: linked.txt",
      });
      await expect(readFile(join(temp.evil, "secret.txt"), "utf8")).resolves.toBe("secret\n");
    },
  );
});

describe("glob", () => {
  it("lists matching files with / separators, sorted by code unit", async () => {
    await mkdir(join(temp.ws, "src/b"), { recursive: true });
    await writeFile(join(temp.ws, "src/b/z.ts"), "");
    await writeFile(join(temp.ws, "src/B.ts"), "");
    await writeFile(join(temp.ws, "src/a.ts"), "");
    await writeFile(join(temp.ws, "src/a.js"), "");
    await writeFile(join(temp.ws, "top.ts"), "");
    await expect(files.glob("**/*.ts")).resolves.toEqual({
      paths: ["src/B.ts", "src/a.ts", "src/b/z.ts", "top.ts"],
      omitted: 0,
    });
    await expect(files.glob("src/*")).resolves.toEqual({
      paths: ["src/B.ts", "src/a.js", "src/a.ts"],
      omitted: 0,
    });
  });

  it("never lists .git or any name that means .git", async () => {
    for (const name of [".git", "GIT~1", ".git.", ".git ", ".GIT", ".git::$INDEX_ALLOCATION"]) {
      // Windows folds all of these onto .git itself; a default macOS volume folds .GIT onto it.
      if (onWindows && name !== ".git") continue;
      if (process.platform === "darwin" && name === ".GIT") continue;
      await mkdir(join(temp.ws, name));
      await writeFile(join(temp.ws, name, "config"), "");
    }
    await writeFile(join(temp.ws, ".gitignore"), "");
    await mkdir(join(temp.ws, "sub/.git"), { recursive: true });
    await writeFile(join(temp.ws, "sub/.git/HEAD"), "");
    await writeFile(join(temp.ws, "sub/.git.keep"), "");
    await expect(files.glob("**")).resolves.toEqual({
      paths: [".gitignore", "sub/.git.keep"],
      omitted: 0,
    });
    await expect(files.glob(".git/*")).resolves.toEqual({ paths: [], omitted: 0 });
  });

  it("lists a symlinked directory as an entry but never descends into it", async () => {
    await symlink(temp.evil, join(temp.ws, "linked"), "junction");
    await writeFile(join(temp.ws, "own.txt"), "");
    await expect(files.glob("**")).resolves.toEqual({ paths: ["linked", "own.txt"], omitted: 0 });
    await expect(files.glob("linked/*")).resolves.toEqual({ paths: [], omitted: 0 });
  });

  it.skipIf(onWindows)("terminates on symlink loops (POSIX only: relative symlinks)", async () => {
    await mkdir(join(temp.ws, "dir"));
    await symlink("..", join(temp.ws, "dir/up"));
    await symlink(".", join(temp.ws, "self"));
    await symlink("b", join(temp.ws, "a"));
    await symlink("a", join(temp.ws, "b"));
    await expect(files.glob("**")).resolves.toEqual({
      paths: ["a", "b", "dir/up", "self"],
      omitted: 0,
    });
  });

  it("asks at each glob whether a process could swap a directory mid-walk", async () => {
    await mkdir(join(temp.ws, "src/deep"), { recursive: true });
    await writeFile(join(temp.ws, "src/deep/a.ts"), "");
    const answers = [true, false];
    const asked: boolean[] = [];
    const sandboxedOnly = new NodeWorkspaceFileSystem(temp.ws, {
      noProcessRunsAlongside: () => {
        const answer = answers[asked.length] ?? false;
        asked.push(answer);
        return answer;
      },
    });
    // Listed by path, then through held descriptors: the same answer either way.
    for (let round = 0; round < 2; round += 1) {
      await expect(sandboxedOnly.glob("**/*.ts")).resolves.toEqual({
        paths: ["src/deep/a.ts"],
        omitted: 0,
      });
    }
    expect(asked).toEqual([true, false]);
  });

  it("caps the list and says how many more matched", async () => {
    const count = GLOB_RESULT_LIMIT + 7;
    await mkdir(join(temp.ws, "many"));
    for (let index = 0; index < count; index += 1) {
      await writeFile(join(temp.ws, "many", `f${String(index).padStart(5, "0")}.txt`), "");
    }
    const result = await files.glob("many/*.txt");
    expect(result.omitted).toBe(7);
    expect(result.paths).toHaveLength(GLOB_RESULT_LIMIT);
    expect(result.paths[0]).toBe("many/f00000.txt");
    expect(result.paths.at(-1)).toBe("many/f00999.txt");
  });

  it("rejects absolute and parent patterns", async () => {
    await expect(failure(files.glob("/etc/*"))).resolves.toEqual({
      code: "invalid_path",
      message: "pattern must be relative to the workspace, not absolute: /etc/*",
    });
    await expect(failure(files.glob("../*"))).resolves.toEqual({
      code: "path_escape",
      message: "pattern must not contain parent segments: ../*",
    });
  });
});

describe("a file holding bytes that are not valid UTF-8 (issue 41)", () => {
  const latin1 = Buffer.from("ok\ncaf\xe9\n", "latin1");
  const refused = {
    code: "invalid_utf8_file",
    message:
      "menu.txt holds bytes that are not valid UTF-8, which this write would replace; nothing " +
      "was written. read_file it first (it shows those bytes as U+FFFD): a write_file after " +
      "that replaces the file",
  };

  it("a read of only its valid lines says nothing and does not let a write replace it", async () => {
    await writeFile(join(temp.ws, "menu.txt"), latin1);
    const part = await files.readFile("menu.txt", { offset: 1, limit: 1 });
    expect(part).toEqual({ text: "ok\n", firstLine: 1, lastLine: 1, totalLines: 2 });
    await expect(failure(files.writeFile("menu.txt", "x"))).resolves.toEqual(refused);
    expect(await readFile(join(temp.ws, "menu.txt"))).toEqual(latin1);
  });

  it("a read that met the bytes says so, and then a write may replace the file", async () => {
    await writeFile(join(temp.ws, "menu.txt"), latin1);
    const whole = await files.readFile("menu.txt");
    expect(whole).toEqual({
      text: "ok\ncaf\u{FFFD}\n",
      firstLine: 1,
      lastLine: 2,
      totalLines: 2,
      invalidUtf8: true,
    });
    await expect(files.writeFile("menu.txt", "x")).resolves.toBe(1);
  });

  it("a file read as binary may be replaced; an invalid sequence cut by a chunk is found", async () => {
    await writeFile(join(temp.ws, "menu.txt"), Buffer.concat([Buffer.from([0]), latin1]));
    await expect(failure(files.readFile("menu.txt"))).resolves.toMatchObject({
      code: "binary_file",
    });
    await expect(files.writeFile("menu.txt", "x")).resolves.toBe(1);
    // A valid three-byte sequence across the 64 KiB chunk boundary, then an invalid one.
    const big = Buffer.concat([Buffer.alloc(65_535, 0x61), Buffer.from("€"), latin1]);
    await writeFile(join(temp.ws, "big.txt"), big);
    await expect(failure(files.writeFile("big.txt", "x"))).resolves.toMatchObject({
      code: "invalid_utf8_file",
    });
    await writeFile(join(temp.ws, "big.txt"), big.subarray(0, 65_538));
    await expect(files.writeFile("big.txt", "x")).resolves.toBe(1);
  });
});
