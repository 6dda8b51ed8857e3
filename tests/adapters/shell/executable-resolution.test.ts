import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  resolveExecutable,
  resolveProgram,
  resolveWindowsPowerShell,
  trustedPathValue,
  type FileProbe,
} from "../../../src/adapters/shell/executable-resolution.js";

describe.skipIf(process.platform === "win32")(
  "resolveExecutable on a real POSIX filesystem (POSIX only: executable bits and file symlinks)",
  () => {
    let root: string;
    let workspace: string;
    let trusted: string;

    beforeEach(async () => {
      root = await mkdtemp(join(await realpath(tmpdir()), "resolution-"));
      workspace = join(root, "ws");
      trusted = join(root, "trusted");
      await mkdir(join(workspace, "bin"), { recursive: true });
      await mkdir(trusted);
      await plant(join(workspace, "bin", "bash"));
      await plant(join(workspace, "bash"));
      await plant(join(trusted, "bash"));
    });

    afterEach(async () => {
      await rm(root, { recursive: true, force: true });
    });

    async function plant(file: string, mode = 0o755): Promise<void> {
      await writeFile(file, "#!/bin/sh\necho planted\n");
      await chmod(file, mode);
    }

    function resolve(pathValue: string, name = "bash"): string | undefined {
      return resolveExecutable(name, { env: { PATH: pathValue }, workspace, platform: "linux" });
    }

    it("never picks a binary planted in the workspace, an empty entry, `.` or a relative entry", () => {
      const pathValue = [join(workspace, "bin"), "", ".", "bin", workspace, trusted].join(":");
      expect(resolve(pathValue)).toBe(join(trusted, "bash"));
    });

    it("returns undefined when only untrusted entries hold the program", () => {
      expect(resolve([join(workspace, "bin"), ".", ""].join(":"))).toBeUndefined();
    });

    it("skips a PATH entry that is a symlink into the workspace", async () => {
      const link = join(root, "innocent-looking");
      await symlink(join(workspace, "bin"), link);
      expect(resolve([link, trusted].join(":"))).toBe(join(trusted, "bash"));
    });

    it("skips a program that is a symlink into the workspace", async () => {
      const linkDir = join(root, "links");
      await mkdir(linkDir);
      await symlink(join(workspace, "bin", "bash"), join(linkDir, "bash"));
      expect(resolve([linkDir, trusted].join(":"))).toBe(join(trusted, "bash"));
    });

    it("treats a sibling sharing the workspace's name prefix as outside it", async () => {
      const sibling = `${workspace}-tools`;
      await mkdir(sibling);
      await plant(join(sibling, "bash"));
      expect(resolve([sibling, trusted].join(":"))).toBe(join(sibling, "bash"));
    });

    it("skips files that are not executable", async () => {
      const plain = join(root, "plain");
      await mkdir(plain);
      await plant(join(plain, "bash"), 0o644);
      expect(resolve([plain, trusted].join(":"))).toBe(join(trusted, "bash"));
    });

    it("refuses anything but a bare program name", () => {
      expect(() => resolve(trusted, "./bash")).toThrow(
        'Expected a bare program name, got "./bash"',
      );
    });

    it("resolveProgram: a name from a trusted PATH entry, an absolute path outside the workspace as named; the rest refused", async () => {
      const linkOut = join(root, "bash-link");
      await symlink(join(trusted, "bash"), linkOut);
      const linkIn = join(root, "planted-link");
      await symlink(join(workspace, "bash"), linkIn);
      const env = { PATH: [join(workspace, "bin"), "", ".", "bin", trusted].join(":") };
      const program = (command: string) =>
        resolveProgram(command, { env, workspace, platform: "linux" });
      expect(
        [
          "bash",
          "planted",
          "./bash",
          "bin/bash",
          join(workspace, "bash"),
          linkIn,
          join(root, "gone"),
          linkOut,
        ].map(program),
      ).toEqual([
        { found: join(trusted, "bash") },
        { refused: "not-on-path" },
        { refused: "relative" },
        { refused: "relative" },
        { refused: "inside-workspace" },
        { refused: "inside-workspace" },
        { refused: "missing" },
        { found: linkOut },
      ]);
    });

    it("trustedPathValue keeps only the absolute entries that exist outside the workspace", async () => {
      const link = join(root, "innocent-looking");
      await symlink(join(workspace, "bin"), link);
      const pathValue = [
        join(workspace, "bin"),
        "",
        ".",
        "bin",
        link,
        join(root, "not-yet"),
        trusted,
        workspace,
      ].join(":");
      expect(trustedPathValue({ env: { PATH: pathValue }, workspace, platform: "linux" })).toBe(
        trusted,
      );
      expect(trustedPathValue({ env: {}, workspace, platform: "linux" })).toBeUndefined();
    });
  },
);

/** A Windows filesystem as a table: files that exist, and optional link targets. */
function fakeWindows(files: readonly string[], links: Record<string, string> = {}): FileProbe {
  const lower = new Set(files.map((file) => file.toLowerCase()));
  return {
    isExecutableFile: (candidate) => lower.has(candidate.toLowerCase()),
    realpath: (candidate) => links[candidate] ?? candidate,
  };
}

describe("resolveExecutable with Windows paths (runs on every OS)", () => {
  const workspace = "C:\\Users\\ada\\repo";

  it("skips the workspace (any letter case), `.`, relative and UNC entries, and finds pwsh", () => {
    const probe = fakeWindows([
      "C:\\Users\\ada\\repo\\pwsh.exe",
      "C:\\Users\\ada\\repo\\tools\\pwsh.exe",
      "\\\\server\\share\\pwsh.exe",
      "C:\\Program Files\\PowerShell\\7\\pwsh.exe",
    ]);
    const env = {
      Path: [
        "C:\\USERS\\ADA\\REPO\\tools",
        ".",
        "",
        "tools",
        "\\\\server\\share",
        "C:\\Users\\ada\\repo",
        '"C:\\Program Files\\PowerShell\\7"',
      ].join(";"),
    };
    expect(resolveExecutable("pwsh.exe", { env, workspace, platform: "win32", probe })).toBe(
      "C:\\Program Files\\PowerShell\\7\\pwsh.exe",
    );
  });

  it("adds PATHEXT extensions to a name without one, in PATHEXT order", () => {
    const probe = fakeWindows(["C:\\Git\\bin\\bash.cmd", "C:\\Git\\bin\\bash.exe"]);
    const env = { PATH: "C:\\Git\\bin", PATHEXT: ".EXE;.CMD" };
    expect(resolveExecutable("bash", { env, workspace, platform: "win32", probe })).toBe(
      "C:\\Git\\bin\\bash.exe",
    );
  });

  it("does not add extensions to a name that already has a PATHEXT one", () => {
    const probe = fakeWindows(["C:\\Tools\\pwsh.exe.cmd"]);
    const env = { PATH: "C:\\Tools", PATHEXT: ".EXE;.CMD" };
    expect(resolveExecutable("pwsh.exe", { env, workspace, platform: "win32", probe })).toBe(
      undefined,
    );
  });

  it("skips a PATH entry that is a junction into the workspace", () => {
    const probe = fakeWindows(["C:\\Linked\\pwsh.exe"], { "C:\\Linked": "C:\\Users\\ada\\repo" });
    const env = { PATH: "C:\\Linked" };
    expect(
      resolveExecutable("pwsh.exe", { env, workspace, platform: "win32", probe }),
    ).toBeUndefined();
  });

  it("skips a junction into the workspace even when its program links back out", () => {
    const probe = fakeWindows(["C:\\Linked\\pwsh.exe", "C:\\Real\\pwsh.exe"], {
      "C:\\Linked": "C:\\Users\\ada\\repo\\bin",
      "C:\\Linked\\pwsh.exe": "C:\\Real\\pwsh.exe",
    });
    const env = { PATH: "C:\\Linked;C:\\Real" };
    expect(resolveExecutable("pwsh.exe", { env, workspace, platform: "win32", probe })).toBe(
      "C:\\Real\\pwsh.exe",
    );
  });

  it("resolves the real path only of the entry that holds the program, not of every entry", () => {
    const files = fakeWindows(["C:\\Tools7\\pwsh.exe"]);
    const asked: string[] = [];
    const probe: FileProbe = {
      isExecutableFile: (candidate) => files.isExecutableFile(candidate),
      realpath: (candidate) => {
        asked.push(candidate);
        return files.realpath(candidate);
      },
    };
    const env = { PATH: [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `C:\\Tools${n}`).join(";") };
    expect(resolveExecutable("pwsh.exe", { env, workspace, platform: "win32", probe })).toBe(
      "C:\\Tools7\\pwsh.exe",
    );
    expect(asked).toEqual([workspace, "C:\\Tools7", "C:\\Tools7\\pwsh.exe"]);
  });

  it("resolveProgram: a drive or share path is absolute; `\\x` and `C:x` are relative", () => {
    const probe = fakeWindows(["C:\\Users\\ada\\repo\\x.exe", "\\\\server\\tools\\x.exe"]);
    const program = (command: string) =>
      resolveProgram(command, { env: { PATH: "" }, workspace, platform: "win32", probe });
    expect(
      ["\\x.exe", "C:x.exe", "C:\\USERS\\ada\\repo\\x.exe", "\\\\server\\tools\\x.exe"].map(
        program,
      ),
    ).toEqual([
      { refused: "relative" },
      { refused: "relative" },
      { refused: "inside-workspace" },
      { found: "\\\\server\\tools\\x.exe" },
    ]);
  });

  it("finds Windows PowerShell at its System32 location", () => {
    const probe = fakeWindows(["D:\\Win\\System32\\WindowsPowerShell\\v1.0\\powershell.exe"]);
    expect(
      resolveWindowsPowerShell({
        env: { SystemRoot: "D:\\Win" },
        workspace,
        platform: "win32",
        probe,
      }),
    ).toBe("D:\\Win\\System32\\WindowsPowerShell\\v1.0\\powershell.exe");
  });

  it("reports Windows PowerShell absent when System32 does not hold it", () => {
    const probe = fakeWindows([]);
    expect(
      resolveWindowsPowerShell({ env: {}, workspace, platform: "win32", probe }),
    ).toBeUndefined();
  });
});
