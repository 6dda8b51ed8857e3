import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CAN_SYMLINK_FILES, FILE_SYMLINKS_REASON } from "../../support/platform.js";
import { WorkspaceFileError } from "../../../src/core/ports/filesystem.js";
import { isGitDirectoryName } from "../../../src/adapters/filesystem/git-names.js";
import { NodeWorkspaceWriteBoundary } from "../../../src/adapters/filesystem/node-filesystem.js";
import {
  classifyWorkspacePath,
  isWithinRoot,
  safePath,
  safeWritablePath,
} from "../../../src/adapters/filesystem/safe-path.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

// Dangling and looping links need POSIX symlinks; Windows makes them only with Developer Mode.
const onWindows = process.platform === "win32";
const POSIX_LINKS = " (POSIX only: dangling symlinks need Developer Mode on Windows)";

describe("classifyWorkspacePath accepts plain relative paths on every OS", () => {
  it.each([
    ["a.txt", ["a.txt"]],
    ["src/a.ts", ["src", "a.ts"]],
    ["./src/a.ts", ["src", "a.ts"]],
    ["src\\a.ts", ["src", "a.ts"]],
    ["src//a.ts", ["src", "a.ts"]],
    ["src/", ["src"]],
    [".", []],
    [".env", [".env"]],
    ["...config", ["...config"]],
    ["..foo", ["..foo"]],
    ["console.log.ts", ["console.log.ts"]],
    ["com10.txt", ["com10.txt"]],
    ["lpt.txt", ["lpt.txt"]],
    ["nulls/x", ["nulls", "x"]],
    ["a b/c d.txt", ["a b", "c d.txt"]],
    [" leading-space.txt", [" leading-space.txt"]],
    ["中文/文件.md", ["中文", "文件.md"]],
    ["~/x", ["~", "x"]],
    [`${"a".repeat(255)}/b`, ["a".repeat(255), "b"]],
  ] as const)("%j", (path, segments) => {
    expect(classifyWorkspacePath(path)).toEqual({ ok: true, segments });
  });
});

describe("classifyWorkspacePath rejects, identically on every OS", () => {
  const absolute = (path: string) => ({
    ok: false,
    code: "invalid_path",
    message: `path must be relative to the workspace, not absolute: ${path}`,
  });
  const parent = (path: string) => ({
    ok: false,
    code: "path_escape",
    message: `path must not contain parent segments: ${path}`,
  });
  const reserved = (path: string) => ({
    ok: false,
    code: "invalid_path",
    message: `path must not contain any of < > : " | ? *: ${path}`,
  });
  const trailing = (path: string) => ({
    ok: false,
    code: "invalid_path",
    message: `path segments must not end in a dot or a space: ${path}`,
  });
  const device = (segment: string, path: string) => ({
    ok: false,
    code: "invalid_path",
    message: `path must not use the Windows device name ${segment}: ${path}`,
  });
  const control = (path: string) => ({
    ok: false,
    code: "invalid_path",
    message: `path must not contain control characters: ${JSON.stringify(path)}`,
  });

  it.each([
    ["", { ok: false, code: "invalid_path", message: "path must not be empty" }],
    // Absolute in every form.
    ["/etc/passwd", absolute("/etc/passwd")],
    ["\\etc\\passwd", absolute("\\etc\\passwd")],
    ["C:\\x", absolute("C:\\x")],
    ["c:/x", absolute("c:/x")],
    ["C:x", absolute("C:x")],
    ["C:", absolute("C:")],
    ["\\\\server\\share\\x", absolute("\\\\server\\share\\x")],
    ["//server/share/x", absolute("//server/share/x")],
    ["\\\\?\\C:\\x", absolute("\\\\?\\C:\\x")],
    ["\\\\.\\pipe\\x", absolute("\\\\.\\pipe\\x")],
    ["\\??\\C:\\x", absolute("\\??\\C:\\x")],
    ["//?/C:/x", absolute("//?/C:/x")],
    // Any parent segment, escaping or not, with either separator.
    ["..", parent("..")],
    ["../outside.txt", parent("../outside.txt")],
    ["..\\outside.txt", parent("..\\outside.txt")],
    ["a/../b", parent("a/../b")],
    ["a\\..\\b", parent("a\\..\\b")],
    ["a/..", parent("a/..")],
    ["./../x", parent("./../x")],
    // Control characters, NUL first among them.
    ["a\u0000b", control("a\u0000b")],
    ["a\nb", control("a\nb")],
    ["a\tb", control("a\tb")],
    ["a\u007fb", control("a\u007fb")],
    ["a\u0085b", control("a\u0085b")],
    // Reserved characters; `:` also blocks alternate data streams.
    ["a.txt:secret", reserved("a.txt:secret")],
    ["a.txt::$DATA", reserved("a.txt::$DATA")],
    ["src/a:b", reserved("src/a:b")],
    ["a<b", reserved("a<b")],
    ["a>b", reserved("a>b")],
    ['a"b', reserved('a"b')],
    ["a|b", reserved("a|b")],
    ["a?b", reserved("a?b")],
    ["*.ts", reserved("*.ts")],
    // Trailing dot or space, in any segment.
    ["a.", trailing("a.")],
    ["a ", trailing("a ")],
    ["dir./x", trailing("dir./x")],
    ["dir /x", trailing("dir /x")],
    ["...", trailing("...")],
    [".git.", trailing(".git.")],
    // Device names, any case, with or without extension, in any segment.
    ["CON", device("CON", "CON")],
    ["con", device("con", "con")],
    ["Con.txt", device("Con.txt", "Con.txt")],
    ["src/nul.tar.gz", device("nul.tar.gz", "src/nul.tar.gz")],
    ["PRN", device("PRN", "PRN")],
    ["aux.c", device("aux.c", "aux.c")],
    ["COM1", device("COM1", "COM1")],
    ["com9.log", device("com9.log", "com9.log")],
    ["LPT1", device("LPT1", "LPT1")],
    ["lpt9/x", device("lpt9", "lpt9/x")],
    ["COM¹", device("COM¹", "COM¹")],
    ["lpt³.txt", device("lpt³.txt", "lpt³.txt")],
    ["CONIN$", device("CONIN$", "CONIN$")],
    ["conout$.txt", device("conout$.txt", "conout$.txt")],
    ["NUL .txt", device("NUL .txt", "NUL .txt")],
    ["dir/CON/x", device("CON", "dir/CON/x")],
    // 256 bytes in one name: over Linux's limit (and, in UTF-16 units, Windows').
    ["a".repeat(256), tooLong("a".repeat(256))],
    [`src/${"é".repeat(128)}.md`, tooLong(`src/${"é".repeat(128)}.md`)],
  ] as const)("%j", (path, expected) => {
    expect(classifyWorkspacePath(path)).toEqual(expected);
  });
});

function tooLong(path: string) {
  return { ok: false, code: "invalid_path", message: `path is too long: ${path}` } as const;
}

describe("isWithinRoot compares path components", () => {
  it.each([
    ["/work/ws", "/work/ws", "linux", true],
    ["/work/ws", "/work/ws/a.txt", "linux", true],
    ["/work/ws", "/work/ws-evil", "linux", false],
    ["/work/ws", "/work/ws-evil/a.txt", "linux", false],
    ["/work/ws", "/work", "linux", false],
    ["/work/ws", "/work/WS/a.txt", "linux", false],
    ["/work/ws", "/work/WS/a.txt", "darwin", true],
    ["/", "/anything", "linux", true],
    ["C:\\work\\ws", "c:\\WORK\\ws\\a.txt", "win32", true],
    ["C:\\work\\ws", "C:\\work\\ws-evil\\a.txt", "win32", false],
    ["C:\\work\\ws", "D:\\work\\ws\\a.txt", "win32", false],
    ["C:\\work\\ws", "C:/work/ws/a.txt", "win32", true],
    ["\\\\server\\share\\ws", "\\\\server\\share\\ws\\x", "win32", true],
    ["\\\\server\\share\\ws", "\\\\server\\share\\ws2\\x", "win32", false],
  ] as const)("%s contains %s on %s: %s", (root, candidate, platform, expected) => {
    expect(isWithinRoot(root, candidate, platform)).toBe(expected);
  });
});

describe("isGitDirectoryName knows the names that mean .git", () => {
  it.each([
    [".git", true],
    [".GIT", true],
    ["GIT~1", true],
    ["git~2", true],
    [".git.", true],
    [".git ", true],
    [".git. . ", true],
    [".git::$INDEX_ALLOCATION", true],
    [".git:$I30:$INDEX_ALLOCATION", true],
    [".g\u200cit", true],
    // The one-character pre-check must let a leading ignorable code point through.
    ["\u200c.git", true],
    ["\u202aGIT~1", true],
    ["\ufeff.git", true],
    // ... and one in second place, after either first character an alias can have.
    [".\u200dgit", true],
    ["G\u200cIT~1", true],
    ["gI\u200dT~3", true],
    // NTFS's upper-case table takes the dotless i to I.
    [".g\u0131t", true],
    ["g\u0131t~1", true],
    [".gitignore", false],
    [".github", false],
    ["git", false],
    ["git~", false],
    ["git~0", false],
    ["x.git", false],
    [".eslintrc.js", false],
    ["gİt~1", false],
  ] as const)("%j: %s", (name, expected) => {
    expect(isGitDirectoryName(name)).toBe(expected);
  });
});

describe("safePath on a real filesystem", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
    await writeFile(join(temp.evil, "secret.txt"), "secret\n");
  });
  afterEach(() => temp.cleanup());

  const outside = (path: string) => ({
    code: "path_escape",
    message: `path resolves outside the workspace: ${path}`,
  });
  const tooManyLinks = (path: string) => ({
    code: "invalid_path",
    message: `path has too many levels of symbolic links: ${path}`,
  });

  async function rejection(path: string, workspace = temp.ws): Promise<unknown> {
    const error = await safePath(workspace, path).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!(error instanceof WorkspaceFileError)) return error;
    return { code: error.code, message: error.message };
  }

  it("returns the absolute path inside the real workspace, existing or not", async () => {
    await mkdir(join(temp.ws, "src"));
    await expect(safePath(temp.ws, "src/a.ts")).resolves.toBe(join(temp.ws, "src", "a.ts"));
    await expect(safePath(temp.ws, "./new/dir/b.ts")).resolves.toBe(
      join(temp.ws, "new", "dir", "b.ts"),
    );
    await expect(safePath(temp.ws, ".")).resolves.toBe(temp.ws);
  });

  it("resolves a workspace given through a symlink to its real path", async () => {
    const alias = join(temp.base, "alias");
    await symlink(temp.ws, alias, "junction");
    await expect(safePath(alias, "a.txt")).resolves.toBe(join(temp.ws, "a.txt"));
  });

  it("rejects syntax before touching the disk", async () => {
    await expect(rejection("../ws-evil/secret.txt")).resolves.toEqual({
      code: "path_escape",
      message: "path must not contain parent segments: ../ws-evil/secret.txt",
    });
    await expect(rejection(join(temp.ws, "a.txt"))).resolves.toEqual({
      code: "invalid_path",
      message: `path must be relative to the workspace, not absolute: ${join(temp.ws, "a.txt")}`,
    });
  });

  it("treats the ws-evil sibling as outside even though its name starts with ws", async () => {
    await symlink(temp.evil, join(temp.ws, "evil"), "junction");
    await expect(rejection("evil/secret.txt")).resolves.toEqual(outside("evil/secret.txt"));
  });

  it.skipIf(!CAN_SYMLINK_FILES)(
    `rejects a symlinked directory and a symlinked file that point outside ${FILE_SYMLINKS_REASON}`,
    async () => {
      await symlink(temp.evil, join(temp.ws, "linked-dir"), "junction");
      await symlink(join(temp.evil, "secret.txt"), join(temp.ws, "linked-file.txt"), "file");
      await expect(rejection("linked-dir/secret.txt")).resolves.toEqual(
        outside("linked-dir/secret.txt"),
      );
      await expect(rejection("linked-dir/new/deep.txt")).resolves.toEqual(
        outside("linked-dir/new/deep.txt"),
      );
      await expect(rejection("linked-file.txt")).resolves.toEqual(outside("linked-file.txt"));
    },
  );

  it("follows links that stay inside to their real target", async () => {
    await mkdir(join(temp.ws, "real"));
    await symlink(join(temp.ws, "real"), join(temp.ws, "alias"), "junction");
    await expect(safePath(temp.ws, "alias/x.txt")).resolves.toBe(join(temp.ws, "real", "x.txt"));
  });

  it.skipIf(onWindows)(
    `rejects a dangling link whose target is outside${POSIX_LINKS}`,
    async () => {
      await symlink(join(temp.evil, "created-by-write.txt"), join(temp.ws, "dangling.txt"));
      await symlink(join(temp.evil, "missing-dir"), join(temp.ws, "dangling-dir"));
      await expect(rejection("dangling.txt")).resolves.toEqual(outside("dangling.txt"));
      await expect(rejection("dangling-dir/a/b.txt")).resolves.toEqual(
        outside("dangling-dir/a/b.txt"),
      );
    },
  );

  it.skipIf(onWindows)(`follows a dangling link whose target is inside${POSIX_LINKS}`, async () => {
    await symlink("later/file.txt", join(temp.ws, "dangling.txt"));
    await expect(safePath(temp.ws, "dangling.txt")).resolves.toBe(
      join(temp.ws, "later", "file.txt"),
    );
  });

  it.skipIf(onWindows)(
    `applies .. in a dangling link target after the real directory, as the kernel does${POSIX_LINKS}`,
    async () => {
      // Lexically `sub/../x.txt` is `ws/x.txt`; really `sub` is ws-evil/inner, so it is ws-evil/x.txt.
      await mkdir(join(temp.evil, "inner"));
      await symlink(join(temp.evil, "inner"), join(temp.ws, "sub"));
      await symlink("sub/../x.txt", join(temp.ws, "tricky.txt"));
      await expect(rejection("tricky.txt")).resolves.toEqual(outside("tricky.txt"));
    },
  );

  it.skipIf(onWindows)(`refuses symlink loops instead of spinning${POSIX_LINKS}`, async () => {
    await symlink("b", join(temp.ws, "a"));
    await symlink("a", join(temp.ws, "b"));
    await symlink("self", join(temp.ws, "self"));
    await expect(rejection("a/x.txt")).resolves.toEqual(tooManyLinks("a/x.txt"));
    await expect(rejection("self")).resolves.toEqual(tooManyLinks("self"));
  });

  it("refuses a name over the platform's limit without showing the host path", async () => {
    const name = "x".repeat(300);
    await mkdir(join(temp.ws, "src"));
    await expect(rejection(name)).resolves.toEqual({
      code: "invalid_path",
      message: `path is too long: ${name}`,
    });
    await expect(rejection(`src/${name}/a.txt`)).resolves.toEqual({
      code: "invalid_path",
      message: `path is too long: src/${name}/a.txt`,
    });
  });

  it("fails closed with a plain error when the workspace cannot be resolved", async () => {
    const error = await rejection("a.txt", join(temp.base, "missing"));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(WorkspaceFileError);
    expect(error).toMatchObject({ code: "ENOENT", syscall: "realpath" });
  });

  it.skipIf(!CAN_SYMLINK_FILES)(
    `never reads or writes while checking ${FILE_SYMLINKS_REASON}`,
    async () => {
      await symlink(join(temp.evil, "secret.txt"), join(temp.ws, "leak.txt"));
      await rejection("leak.txt");
      await expect(readFile(join(temp.evil, "secret.txt"), "utf8")).resolves.toBe("secret\n");
    },
  );
});

describe("safeWritablePath refuses .git", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
    await mkdir(join(temp.ws, ".git"));
  });
  afterEach(() => temp.cleanup());

  const outcome = (path: string): Promise<unknown> => writableOutcome(temp.ws, path);
  const refused = (path: string) =>
    `protected_path: path is inside .git, which the agent may not change: ${path}`;

  it.each([".git", ".git/config", "a/.git/hooks/x", ".GIT/config", "git~1/x", ".g\u200cit/config"])(
    "%j by name",
    async (path) => {
      await expect(outcome(path)).resolves.toBe(refused(path));
    },
  );

  it("through a link into .git, and at the target of a symlinked .git", async () => {
    await symlink(join(temp.ws, ".git"), join(temp.ws, "g"), "junction");
    await mkdir(join(temp.ws, "sub", "data"), { recursive: true });
    await symlink(join(temp.ws, "sub", "data"), join(temp.ws, "sub", ".git"), "junction");
    await expect(outcome("g/config")).resolves.toBe(refused("g/config"));
    await expect(outcome("sub/data/hooks/x")).resolves.toBe(refused("sub/data/hooks/x"));
    await expect(outcome("sub/other.txt")).resolves.toBe(join(temp.ws, "sub", "other.txt"));
  });

  it("lets everything else through as safePath does", async () => {
    await expect(outcome(".gitignore")).resolves.toBe(join(temp.ws, ".gitignore"));
    await expect(outcome("git/x")).resolves.toBe(join(temp.ws, "git", "x"));
    await expect(outcome("../ws-evil/x")).resolves.toBe(
      "path_escape: path must not contain parent segments: ../ws-evil/x",
    );
  });
});

describe("safeWritablePath refuses git metadata not named .git", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(() => temp.cleanup());

  const outcome = (path: string): Promise<unknown> => writableOutcome(temp.ws, path);
  /** What `git init --bare` leaves that git looks for: HEAD, objects/, refs/. */
  async function bareLayout(directory: string): Promise<void> {
    await mkdir(join(temp.ws, directory, "objects"), { recursive: true });
    await mkdir(join(temp.ws, directory, "refs", "heads"), { recursive: true });
    await writeFile(join(temp.ws, directory, "HEAD"), "ref: refs/heads/main\n");
  }
  const inside = (directory: string, path: string) =>
    `protected_path: path is inside a git directory (${directory}), which the agent may not change: ${path}`;
  const wouldMake = (directory: string, path: string) =>
    `protected_path: path would make ${directory} a git directory, which the agent may not create: ${path}`;

  it.each(["server.git/config", "server.git/hooks/pre-commit", "server.git/objects/ab/cd"])(
    "inside a bare repository: %j",
    async (path) => {
      await bareLayout("server.git");
      await expect(outcome(path)).resolves.toBe(inside("server.git", path));
    },
  );

  it("inside a separate git dir named by a gitdir: file, through a link too", async () => {
    await mkdir(join(temp.ws, "app"));
    await writeFile(join(temp.ws, "app", ".git"), "gitdir: ../app-gitdir\n");
    await bareLayout("app-gitdir");
    await symlink(join(temp.ws, "app-gitdir"), join(temp.ws, "alias"), "junction");
    await expect(outcome("app-gitdir/config")).resolves.toBe(
      inside("app-gitdir", "app-gitdir/config"),
    );
    await expect(outcome("alias/hooks/post-checkout")).resolves.toBe(
      inside("app-gitdir", "alias/hooks/post-checkout"),
    );
    await expect(outcome("app/src/main.ts")).resolves.toBe(join(temp.ws, "app", "src", "main.ts"));
  });

  it("inside a worktree-style git dir (HEAD and commondir)", async () => {
    await mkdir(join(temp.ws, "wt"));
    await writeFile(join(temp.ws, "wt", "HEAD"), "ref: refs/heads/x\n");
    await writeFile(join(temp.ws, "wt", "commondir"), "../server.git\n");
    await expect(outcome("wt/config")).resolves.toBe(inside("wt", "wt/config"));
  });

  it("refuses the write that would complete the layout, in any order and any case", async () => {
    await mkdir(join(temp.ws, "evil", "objects"), { recursive: true });
    await mkdir(join(temp.ws, "evil", "refs"));
    await expect(outcome("evil/HEAD")).resolves.toBe(wouldMake("evil", "evil/HEAD"));
    await expect(outcome("evil/head")).resolves.toBe(wouldMake("evil", "evil/head"));
    await expect(outcome("evil/HE\u200cAD")).resolves.toBe(wouldMake("evil", "evil/HE\u200cAD"));
    // Without HEAD, commondir alone does not make a git dir.
    await expect(outcome("evil/commondir")).resolves.toBe(join(temp.ws, "evil", "commondir"));
  });

  it("refuses objects/ or refs/ that would complete the layout, and the workspace itself", async () => {
    await mkdir(join(temp.ws, "evil", "refs"), { recursive: true });
    await writeFile(join(temp.ws, "evil", "HEAD"), "ref: refs/heads/main\n");
    await expect(outcome("evil/objects/info/x")).resolves.toBe(
      wouldMake("evil", "evil/objects/info/x"),
    );
    await expect(outcome("evil/commondir")).resolves.toBe(wouldMake("evil", "evil/commondir"));
    await mkdir(join(temp.ws, "objects"));
    await mkdir(join(temp.ws, "refs"));
    await expect(outcome("HEAD")).resolves.toBe(wouldMake("the workspace", "HEAD"));
  });

  it("lets ordinary look-alike names through", async () => {
    await mkdir(join(temp.ws, "docs", "refs"), { recursive: true });
    await writeFile(join(temp.ws, "HEAD"), "not git\n");
    await expect(outcome("docs/refs/api.md")).resolves.toBe(join(temp.ws, "docs/refs/api.md"));
    await expect(outcome("docs/objects/x.md")).resolves.toBe(join(temp.ws, "docs/objects/x.md"));
    await expect(outcome("HEAD")).resolves.toBe(join(temp.ws, "HEAD"));
    await expect(outcome("objects/a.txt")).resolves.toBe(join(temp.ws, "objects/a.txt"));
  });
});

/** Where safeWritablePath puts `path`, or its refusal as "code: message". */
function writableOutcome(
  workspace: string,
  path: string,
  harnessFiles?: readonly string[],
): Promise<unknown> {
  return safeWritablePath(workspace, path, harnessFiles).then(
    (target) => target,
    (error: unknown) =>
      error instanceof WorkspaceFileError ? `${error.code}: ${error.message}` : error,
  );
}

const refusedAsHarnessFile = (path: string) =>
  `protected_path: path is one of the harness's own files (its audit log, recording or install), which the agent may not change: ${path}`;

describe("safeWritablePath refuses the harness's own files", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(() => temp.cleanup());

  it("by name and through a link, but not a neighbour", async () => {
    const log = join(temp.ws, "logs", "audit.jsonl");
    await mkdir(join(temp.ws, "logs"));
    await writeFile(log, "");
    await symlink(log, join(temp.ws, "innocent.txt"));
    const outcome = (path: string): Promise<unknown> => writableOutcome(temp.ws, path, [log]);
    await expect(outcome("logs/audit.jsonl")).resolves.toBe(
      refusedAsHarnessFile("logs/audit.jsonl"),
    );
    await expect(outcome("innocent.txt")).resolves.toBe(refusedAsHarnessFile("innocent.txt"));
    await expect(outcome("logs/audit.jsonl.bak")).resolves.toBe(
      join(temp.ws, "logs", "audit.jsonl.bak"),
    );
  });
});

describe("safeWritablePath refuses everything inside a harness-owned directory", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(() => temp.cleanup());

  it("the directory, what it holds, new names in it and links into it, but not a neighbour", async () => {
    const dist = join(temp.ws, "dist");
    await mkdir(dist);
    await writeFile(join(dist, "agent-bundle.cjs"), "");
    await symlink(dist, join(temp.ws, "alias"));
    const outcome = (path: string): Promise<unknown> => writableOutcome(temp.ws, path, [dist]);
    for (const path of ["dist", "dist/agent-bundle.cjs", "dist/new/evil.cjs", "alias/x.cjs"]) {
      await expect(outcome(path)).resolves.toBe(refusedAsHarnessFile(path));
    }
    await expect(outcome("dist-notes.txt")).resolves.toBe(join(temp.ws, "dist-notes.txt"));
  });
});

describe("NodeWorkspaceWriteBoundary shares safePath", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(() => temp.cleanup());

  it("answers inside for workspace paths and outside for anything safePath refuses", async () => {
    const boundary = new NodeWorkspaceWriteBoundary();
    await symlink(temp.evil, join(temp.ws, "evil"), "junction");
    await expect(boundary.isPathWithinWorkspace(temp.ws, "new/a.txt")).resolves.toBe(true);
    await expect(boundary.isPathWithinWorkspace(temp.ws, "../outside.txt")).resolves.toBe(false);
    await expect(boundary.isPathWithinWorkspace(temp.ws, "evil/a.txt")).resolves.toBe(false);
    await expect(boundary.isPathWithinWorkspace(temp.ws, "C:\\x")).resolves.toBe(false);
  });

  it("classifies a write as inside, outside, git metadata or a harness file", async () => {
    const log = join(temp.ws, "audit.jsonl");
    await writeFile(log, "");
    await mkdir(join(temp.ws, ".git"));
    await mkdir(join(temp.ws, "server.git", "objects"), { recursive: true });
    await mkdir(join(temp.ws, "server.git", "refs"));
    await writeFile(join(temp.ws, "server.git", "HEAD"), "ref: refs/heads/main\n");
    const boundary = new NodeWorkspaceWriteBoundary({ harnessFiles: [log] });
    const classify = (path: string) => boundary.classifyWrite(temp.ws, path);
    await expect(classify("new/a.txt")).resolves.toBe("inside");
    await expect(classify("../outside.txt")).resolves.toBe("outside");
    await expect(classify(".git/hooks/pre-commit")).resolves.toBe("git-metadata");
    await expect(classify("server.git/config")).resolves.toBe("git-metadata");
    await expect(classify("audit.jsonl")).resolves.toBe("harness-file");
    await expect(
      new NodeWorkspaceWriteBoundary().classifyWrite(join(temp.base, "missing"), "a.txt"),
    ).rejects.toThrow(/ENOENT/u);
  });

  it("rethrows when the workspace itself cannot be resolved, so the policy denies", async () => {
    const boundary = new NodeWorkspaceWriteBoundary();
    await expect(
      boundary.isPathWithinWorkspace(join(temp.base, "missing"), "a.txt"),
    ).rejects.toThrow(/ENOENT/u);
  });
});
