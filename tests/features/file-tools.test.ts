import { mkdir, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeWorkspaceFileSystem } from "../../src/adapters/filesystem/node-filesystem.js";
import type { WorkspaceFileSystem } from "../../src/core/ports/filesystem.js";
import type { ToolResult } from "../../src/core/tools/tool-result.js";
import { ToolRegistry } from "../../src/core/tools/tool-registry.js";
import { createFileTools } from "../../src/features/file-tools.js";
import {
  callTool,
  errorResult as error,
  fileToolRegistry,
  okResult as ok,
} from "../support/file-tool-calls.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/temp-workspace.js";

let temp: TempWorkspace;
let registry: ToolRegistry;

beforeEach(async () => {
  temp = await makeTempWorkspace();
  registry = fileToolRegistry(temp.ws);
});
afterEach(() => temp.cleanup());

const call = (name: string, args: unknown): Promise<ToolResult> => callTool(registry, name, args);

describe("createFileTools", () => {
  it("gives the four tools in order with effects read, write, write, read", () => {
    const snapshot = registry.snapshot();
    expect(snapshot.names()).toEqual(["read_file", "write_file", "edit_file", "glob"]);
    expect(snapshot.names().map((name) => snapshot.effectOf(name))).toEqual([
      "read",
      "write",
      "write",
      "read",
    ]);
  });

  it("shows the model these schemas", () => {
    expect(registry.snapshot().openAITools()).toMatchInlineSnapshot(`
      [
        {
          "description": "Read a UTF-8 text file in the workspace. Files over 256 KB must be read in parts: give offset (first line, from 1) and limit (number of lines).",
          "name": "read_file",
          "parameters": {
            "additionalProperties": false,
            "properties": {
              "limit": {
                "description": "Maximum number of lines to return",
                "maximum": 9007199254740991,
                "minimum": 1,
                "type": "integer",
              },
              "offset": {
                "description": "First line to return, counting from 1",
                "maximum": 9007199254740991,
                "minimum": 1,
                "type": "integer",
              },
              "path": {
                "description": "File path relative to the workspace root, e.g. src/index.ts",
                "type": "string",
              },
            },
            "required": [
              "path",
            ],
            "type": "object",
          },
        },
        {
          "description": "Create a file or replace its whole content. Missing parent directories are created. To change part of an existing file, use edit_file instead.",
          "name": "write_file",
          "parameters": {
            "additionalProperties": false,
            "properties": {
              "content": {
                "description": "The complete new content of the file, as UTF-8 text",
                "type": "string",
              },
              "path": {
                "description": "File path relative to the workspace root, e.g. src/index.ts",
                "type": "string",
              },
            },
            "required": [
              "path",
              "content",
            ],
            "type": "object",
          },
        },
        {
          "description": "Replace exact text in a UTF-8 file. old_string must match exactly once unless replace_all is true. The file's line endings and byte order mark are kept.",
          "name": "edit_file",
          "parameters": {
            "additionalProperties": false,
            "properties": {
              "new_string": {
                "description": "The text to put in its place",
                "type": "string",
              },
              "old_string": {
                "description": "The exact text to replace, including whitespace; it must occur in the file",
                "minLength": 1,
                "type": "string",
              },
              "path": {
                "description": "File path relative to the workspace root, e.g. src/index.ts",
                "type": "string",
              },
              "replace_all": {
                "description": "Replace every occurrence instead of requiring exactly one (default false)",
                "type": "boolean",
              },
            },
            "required": [
              "path",
              "old_string",
              "new_string",
            ],
            "type": "object",
          },
        },
        {
          "description": "List files in the workspace whose paths match a glob pattern, sorted. Symlinked directories are not followed and .git is never listed; at most 1000 paths are shown.",
          "name": "glob",
          "parameters": {
            "additionalProperties": false,
            "properties": {
              "pattern": {
                "description": "Workspace-relative glob: * and ? within a name, ** across directories, [abc], [a-z], [!x]; e.g. src/**/*.ts",
                "type": "string",
              },
            },
            "required": [
              "pattern",
            ],
            "type": "object",
          },
        },
      ]
    `);
  });
});

describe("read_file", () => {
  it("returns a whole file as its text and a part with a line note", async () => {
    await writeFile(join(temp.ws, "a.txt"), "1\n2\n3\n4\n");
    await expect(call("read_file", { path: "a.txt" })).resolves.toEqual(ok("1\n2\n3\n4\n"));
    await expect(call("read_file", { path: "a.txt", offset: 2, limit: 2 })).resolves.toEqual(
      ok("2\n3\n[lines 2-3 of 4]"),
    );
    await expect(call("read_file", { path: "./a.txt", offset: 1, limit: 10 })).resolves.toEqual(
      ok("1\n2\n3\n4\n"),
    );
    await expect(call("read_file", { path: "a.txt", offset: 7 })).resolves.toEqual(
      ok("[no lines from line 7: the file has 4 lines]"),
    );
  });

  it("ends a part without a final newline on its own line before the note", async () => {
    await writeFile(join(temp.ws, "a.txt"), "1\n2\n3");
    await expect(call("read_file", { path: "a.txt", offset: 3 })).resolves.toEqual(
      ok("3\n[lines 3-3 of 3]"),
    );
  });

  it("says when a file is empty", async () => {
    await writeFile(join(temp.ws, "empty.txt"), "");
    await expect(call("read_file", { path: "empty.txt" })).resolves.toEqual(ok("[empty file]"));
  });

  it("maps file errors to their codes", async () => {
    await writeFile(join(temp.ws, "blob.bin"), Buffer.from([1, 0, 2]));
    await expect(call("read_file", { path: "missing.txt" })).resolves.toEqual(
      error("file_not_found", "file not found: missing.txt"),
    );
    await expect(call("read_file", { path: "blob.bin" })).resolves.toEqual(
      error(
        "binary_file",
        "blob.bin looks binary (it contains NUL bytes); only UTF-8 text files can be read",
      ),
    );
    await expect(call("read_file", { path: "../ws-evil/x" })).resolves.toEqual(
      error("path_escape", "path must not contain parent segments: ../ws-evil/x"),
    );
    await expect(call("read_file", { path: "C:\\Windows\\win.ini" })).resolves.toEqual(
      error(
        "invalid_path",
        "path must be relative to the workspace, not absolute: C:\\Windows\\win.ini",
      ),
    );
  });

  it("refuses bad arguments through the strict schema", async () => {
    await expect(call("read_file", { path: "a.txt", offset: 0 })).resolves.toEqual(
      error(
        "invalid_arguments",
        "Invalid arguments for read_file: offset: Too small: expected number to be >=1",
      ),
    );
    await expect(call("read_file", { path: "a.txt", encoding: "latin1" })).resolves.toEqual(
      error("invalid_arguments", "Invalid arguments for read_file: encoding: unexpected field"),
    );
  });
});

describe("write_file", () => {
  it("reports exactly how many UTF-8 bytes it wrote, with the path as given", async () => {
    await expect(
      call("write_file", { path: "./docs/note.txt", content: "中文\n" }),
    ).resolves.toEqual(ok("Wrote 7 UTF-8 bytes to ./docs/note.txt"));
    await expect(readFile(join(temp.ws, "docs/note.txt"), "utf8")).resolves.toBe("中文\n");
  });

  it("refuses paths outside and creates nothing there", async () => {
    await symlink(temp.evil, join(temp.ws, "evil"), "junction");
    await expect(call("write_file", { path: "../outside.txt", content: "x" })).resolves.toEqual(
      error("path_escape", "path must not contain parent segments: ../outside.txt"),
    );
    await expect(call("write_file", { path: "evil/planted.txt", content: "x" })).resolves.toEqual(
      error("path_escape", "path resolves outside the workspace: evil/planted.txt"),
    );
    await expect(readdir(temp.base)).resolves.toEqual(["ws", "ws-evil"]);
    await expect(readdir(temp.evil)).resolves.toEqual([]);
  });

  it("refuses Windows-only dangers on every OS", async () => {
    await expect(call("write_file", { path: "notes.txt:hidden", content: "x" })).resolves.toEqual(
      error("invalid_path", 'path must not contain any of < > : " | ? *: notes.txt:hidden'),
    );
    await expect(call("write_file", { path: "logs/aux.log", content: "x" })).resolves.toEqual(
      error("invalid_path", "path must not use the Windows device name aux.log: logs/aux.log"),
    );
    await expect(readdir(temp.ws)).resolves.toEqual([]);
  });
});

describe("edit_file", () => {
  it("replaces one occurrence, keeping CRLF and the BOM", async () => {
    const target = join(temp.ws, "win.txt");
    await writeFile(target, "\uFEFFa\r\nb\r\n");
    await expect(
      call("edit_file", { path: "win.txt", old_string: "a\nb", new_string: "c\nd" }),
    ).resolves.toEqual(ok("Replaced 1 occurrence in win.txt"));
    await expect(readFile(target, "utf8")).resolves.toBe("\uFEFFc\r\nd\r\n");
  });

  it("says how many occurrences make it ambiguous, and replaces all on request", async () => {
    await writeFile(join(temp.ws, "a.txt"), "x x\n");
    await expect(
      call("edit_file", { path: "a.txt", old_string: "x", new_string: "y" }),
    ).resolves.toEqual(
      error(
        "edit_ambiguous",
        "old_string occurs 2 times in a.txt; add surrounding lines to make it unique, or set " +
          "replace_all to true to replace every occurrence",
      ),
    );
    await expect(
      call("edit_file", { path: "a.txt", old_string: "x", new_string: "y", replace_all: true }),
    ).resolves.toEqual(ok("Replaced 2 occurrences in a.txt"));
    await expect(
      call("edit_file", { path: "a.txt", old_string: "x", new_string: "y" }),
    ).resolves.toEqual(
      error(
        "edit_no_match",
        "old_string was not found in a.txt; read the file and copy the text exactly, including " +
          "whitespace and indentation",
      ),
    );
  });

  it("refuses an empty old_string", async () => {
    await expect(
      call("edit_file", { path: "a.txt", old_string: "", new_string: "y" }),
    ).resolves.toEqual(
      error(
        "invalid_arguments",
        "Invalid arguments for edit_file: old_string: Too small: expected string to have >=1 characters",
      ),
    );
  });
});

describe("write_file and edit_file never change .git", () => {
  const protectedPath = (path: string) =>
    error("protected_path", `path is inside .git, which the agent may not change: ${path}`);

  /** Every file under the workspace with its content, links not followed. */
  async function tree(directory = temp.ws, prefix = ""): Promise<Record<string, string>> {
    const files: Record<string, string> = {};
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const relative = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        Object.assign(files, await tree(join(directory, entry.name), `${relative}/`));
      } else if (entry.isFile()) {
        files[relative] = await readFile(join(directory, entry.name), "utf8");
      } else {
        files[relative] = "(link)";
      }
    }
    return files;
  }

  beforeEach(async () => {
    await mkdir(join(temp.ws, ".git", "hooks"), { recursive: true });
    await writeFile(join(temp.ws, ".git", "config"), "[core]\n");
    await mkdir(join(temp.ws, "sub", ".git"), { recursive: true });
    await writeFile(join(temp.ws, "sub", ".git", "config"), "[core]\n");
  });

  it("refuses every spelling of .git, nested repositories and links into .git", async () => {
    await symlink(join(temp.ws, ".git"), join(temp.ws, "g"), "junction");
    const before = await tree();
    const content = "[core]\n\tfsmonitor = touch /tmp/pwned\n";
    for (const path of [
      ".git/config",
      ".git/hooks/pre-commit",
      "./.git//config",
      "sub/.git/config",
      ".GIT/config",
      "GIT~1/config",
      "g/config",
      "g/hooks/post-checkout",
    ]) {
      await expect(call("write_file", { path, content })).resolves.toEqual(protectedPath(path));
    }
    await expect(
      call("edit_file", { path: ".git/config", old_string: "[core]", new_string: content }),
    ).resolves.toEqual(protectedPath(".git/config"));
    await expect(
      call("edit_file", { path: "g/config", old_string: "[core]", new_string: content }),
    ).resolves.toEqual(protectedPath("g/config"));
    await expect(tree()).resolves.toEqual(before);
  });

  it("refuses the target of a symlinked .git beside the file's directories", async () => {
    // git follows a .git symlink, so what it points at is git's own config and hooks.
    await rm(join(temp.ws, ".git"), { recursive: true });
    await mkdir(join(temp.ws, "gitdata"));
    await writeFile(join(temp.ws, "gitdata", "config"), "[core]\n");
    await symlink(join(temp.ws, "gitdata"), join(temp.ws, ".git"), "junction");
    await symlink(join(temp.ws, "gitdata"), join(temp.ws, "alias"), "junction");
    await rm(join(temp.ws, "sub", ".git"), { recursive: true });
    await mkdir(join(temp.ws, "sub", "moddata"));
    await symlink(join(temp.ws, "sub", "moddata"), join(temp.ws, "sub", ".git"), "junction");
    const before = await tree();
    for (const path of [
      ".git/config",
      "gitdata/config",
      "gitdata/hooks/pre-commit",
      "alias/config",
      "sub/.git/config",
      "sub/moddata/config",
    ]) {
      await expect(call("write_file", { path, content: "x" })).resolves.toEqual(
        protectedPath(path),
      );
    }
    await expect(tree()).resolves.toEqual(before);
  });

  it("still reads .git and writes names that only look like it", async () => {
    await expect(call("read_file", { path: ".git/config" })).resolves.toEqual(ok("[core]\n"));
    await expect(call("write_file", { path: ".gitignore", content: "x\n" })).resolves.toEqual(
      ok("Wrote 2 UTF-8 bytes to .gitignore"),
    );
    await expect(
      call("write_file", { path: ".github/workflows/ci.yml", content: "x\n" }),
    ).resolves.toEqual(ok("Wrote 2 UTF-8 bytes to .github/workflows/ci.yml"));
    await expect(call("write_file", { path: "sub/git/x", content: "x\n" })).resolves.toEqual(
      ok("Wrote 2 UTF-8 bytes to sub/git/x"),
    );
  });
});

describe("glob", () => {
  it("lists one path per line, or says nothing matched", async () => {
    await mkdir(join(temp.ws, "src"));
    await writeFile(join(temp.ws, "src/b.ts"), "");
    await writeFile(join(temp.ws, "src/a.ts"), "");
    await expect(call("glob", { pattern: "src/*.ts" })).resolves.toEqual(ok("src/a.ts\nsrc/b.ts"));
    await expect(call("glob", { pattern: "**/*.py" })).resolves.toEqual(
      ok("No files match **/*.py"),
    );
    await expect(call("glob", { pattern: "../*" })).resolves.toEqual(
      error("path_escape", "pattern must not contain parent segments: ../*"),
    );
  });

  it("says how many more matched than it shows", async () => {
    const fileSystem: WorkspaceFileSystem = {
      root: temp.ws,
      readFile: () => Promise.reject(new Error("unused")),
      writeFile: () => Promise.reject(new Error("unused")),
      editFile: () => Promise.reject(new Error("unused")),
      glob: () => Promise.resolve({ paths: ["a", "b"], omitted: 3 }),
    };
    registry = new ToolRegistry(createFileTools({ fileSystem }));
    await expect(call("glob", { pattern: "*" })).resolves.toEqual(
      ok("a\nb\n[3 more matches not shown]"),
    );
  });
});

describe("glob leaves node_modules out unless the pattern names it", () => {
  beforeEach(async () => {
    await mkdir(join(temp.ws, "node_modules/dep/lib"), { recursive: true });
    await mkdir(join(temp.ws, "src/node_modules/inner"), { recursive: true });
    await writeFile(join(temp.ws, "node_modules/dep/index.js"), "");
    await writeFile(join(temp.ws, "node_modules/dep/lib/a.js"), "");
    await writeFile(join(temp.ws, "src/node_modules/inner/b.js"), "");
    await writeFile(join(temp.ws, "src/main.js"), "");
  });

  it("a project's own files are not drowned by its dependencies, and the result says so", async () => {
    await expect(call("glob", { pattern: "**/*.js" })).resolves.toEqual(
      ok(
        "src/main.js\n" +
          "[2 node_modules directories not searched: put node_modules in the pattern to list them]",
      ),
    );
  });

  it("a pattern that names node_modules lists it", async () => {
    await expect(call("glob", { pattern: "node_modules/**/*.js" })).resolves.toEqual(
      ok("node_modules/dep/index.js\nnode_modules/dep/lib/a.js"),
    );
    await expect(call("glob", { pattern: "**/node_modules/**/*.js" })).resolves.toEqual(
      ok("node_modules/dep/index.js\nnode_modules/dep/lib/a.js\nsrc/node_modules/inner/b.js"),
    );
  });

  it("no match in the project still says so first, then what was not searched", async () => {
    await expect(call("glob", { pattern: "**/*.ts" })).resolves.toEqual(
      ok(
        "No files match **/*.ts\n" +
          "[2 node_modules directories not searched: put node_modules in the pattern to list them]",
      ),
    );
  });

  it("a pattern that cannot reach node_modules says nothing about it", async () => {
    await expect(call("glob", { pattern: "src/*.js" })).resolves.toEqual(ok("src/main.js"));
    await expect(call("glob", { pattern: "*.md" })).resolves.toEqual(ok("No files match *.md"));
  });

  it("a file named node_modules is listed like any file", async () => {
    await mkdir(join(temp.ws, "docs"));
    await writeFile(join(temp.ws, "docs/node_modules"), "");
    await expect(call("glob", { pattern: "docs/*" })).resolves.toEqual(ok("docs/node_modules"));
  });
});

describe("glob shows a name that could forge a result line JSON-quoted", () => {
  function globReturning(paths: string[], omitted = 0): void {
    const fileSystem: WorkspaceFileSystem = {
      root: temp.ws,
      readFile: () => Promise.reject(new Error("unused")),
      writeFile: () => Promise.reject(new Error("unused")),
      editFile: () => Promise.reject(new Error("unused")),
      glob: () => Promise.resolve({ paths, omitted }),
    };
    registry = new ToolRegistry(createFileTools({ fileSystem }));
  }

  it("quotes controls, line separators, a leading quote and the tool's own notes", async () => {
    globReturning(
      [
        "a\n[999 more matches not shown]",
        "b\r\u001b[2Kc",
        "d\u0085e\u007f",
        "f\u2028g\u2029",
        '"quoted"',
        "[5 more matches not shown]",
        "No files match *",
        "[id].tsx",
        "src/plain name.ts",
      ],
      2,
    );
    await expect(call("glob", { pattern: "**" })).resolves.toEqual(
      ok(
        [
          '"a\\n[999 more matches not shown]"',
          '"b\\r\\u001b[2Kc"',
          '"d\\u0085e\\u007f"',
          '"f\\u2028g\\u2029"',
          '"\\"quoted\\""',
          '"[5 more matches not shown]"',
          '"No files match *"',
          "[id].tsx",
          "src/plain name.ts",
          "[2 more matches not shown]",
        ].join("\n"),
      ),
    );
  });

  it.skipIf(process.platform === "win32")(
    "for a real file named with a newline (POSIX only: Windows forbids it)",
    async () => {
      await writeFile(join(temp.ws, "a\n[999 more matches not shown]"), "");
      await writeFile(join(temp.ws, "b.txt"), "");
      await expect(call("glob", { pattern: "*" })).resolves.toEqual(
        ok('"a\\n[999 more matches not shown]"\nb.txt'),
      );
    },
  );
});

describe("errors that are not file errors", () => {
  it("are rethrown so the registry reports tool_execution_error", async () => {
    registry = new ToolRegistry(
      createFileTools({ fileSystem: new NodeWorkspaceFileSystem(join(temp.base, "gone")) }),
    );
    const result = await call("write_file", { path: "a.txt", content: "x" });
    expect(result.errorCode).toBe("tool_execution_error");
    expect(result.content).toBe(
      `Error [tool_execution_error]: Tool write_file failed: ENOENT: no such file or directory, realpath '${join(temp.base, "gone")}'`,
    );
  });
});
