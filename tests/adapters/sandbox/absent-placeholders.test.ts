/**
 * What the host loads later but does not exist yet (a dangling `~/.gitconfig` link into the
 * workspace, a script git's config names at the workspace's root) cannot be bound read-only: the
 * sandbox holds its name with an empty read-only placeholder for the command's length, removes
 * it after, and says so when something it protects exists after a command.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  absentCoverage,
  createdDuringCommand,
  makePlaceholders,
  removePlaceholders,
} from "../../../src/adapters/sandbox/absent-placeholders.js";
import { SandboxContentError } from "../../../src/adapters/sandbox/index.js";
import { BWRAP_REASON, HAS_BWRAP, hostEnvironmentRunner } from "../../support/bubblewrap.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";

const BASH = hostExecutable("bash");
const LIMITS = { timeoutMs: 30_000, maxOutputBytes: 64 * 1024 };

let base: string;
let ws: string;

beforeEach(async () => {
  base = await mkdtemp(join(await realpath(tmpdir()), "absent-placeholders-"));
  ws = join(base, "ws");
  mkdirSync(ws);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("absentCoverage", () => {
  it("a name at the root gets a placeholder at its first missing name; deeper, the nearest folder", () => {
    mkdirSync(join(ws, "dots"));
    expect(
      absentCoverage(ws, [
        join(ws, "gitconfig"),
        join(ws, "shell", "zsh", "zshrc"),
        join(ws, "dots", "bashrc"),
      ]),
    ).toEqual({
      readOnly: [join(ws, "dots")],
      placeholders: [join(ws, "gitconfig"), join(ws, "shell")],
      absent: [
        join(ws, "gitconfig"),
        join(ws, "shell", "zsh", "zshrc"),
        join(ws, "dots", "bashrc"),
      ],
    });
  });

  it("one that exists (an empty file a killed run left) is bound as it is, not replaced", () => {
    writeFileSync(join(ws, "gitconfig"), "");
    expect(absentCoverage(ws, [join(ws, "gitconfig")])).toEqual({
      readOnly: [join(ws, "gitconfig")],
      placeholders: [],
      absent: [],
    });
  });

  it("a link on the way refuses the command: a bind would follow it", () => {
    mkdirSync(join(base, "elsewhere"));
    symlinkSync(join(base, "elsewhere"), join(ws, "dots"));
    expect(() => absentCoverage(ws, [join(ws, "dots", "gitconfig")])).toThrow(SandboxContentError);
    expect(() => absentCoverage(ws, [join(ws, "dots", "gitconfig")])).toThrow(
      `The sandbox refuses to run this command: ${join(ws, "dots")} is a symbolic link on the way to ${join(ws, "dots", "gitconfig")}`,
    );
  });
});

describe("placeholders", () => {
  it("made empty and new, and removed after", () => {
    const made = makePlaceholders([join(ws, "a"), join(ws, "b")]);
    expect(readFileSync(join(ws, "a"), "utf8")).toBe("");
    expect(readFileSync(join(ws, "b"), "utf8")).toBe("");
    expect(removePlaceholders(made)).toEqual([]);
    expect(existsSync(join(ws, "a"))).toBe(false);
    expect(existsSync(join(ws, "b"))).toBe(false);
  });

  it("a changed placeholder is left and named", () => {
    const [made] = makePlaceholders([join(ws, "gitconfig")]);
    writeFileSync(join(ws, "gitconfig"), "[core]\n\tfsmonitor = sh evil\n");
    expect(removePlaceholders(made === undefined ? [] : [made])).toEqual([
      `warning: ${join(ws, "gitconfig")} is not the empty placeholder the harness made there, so it was left as it is; the host loads or runs what is there later: check it`,
    ]);
    expect(readFileSync(join(ws, "gitconfig"), "utf8")).toContain("fsmonitor");
  });

  it("a name already taken is never made over: the command is refused", () => {
    writeFileSync(join(ws, "gitconfig"), "mine\n");
    expect(() => makePlaceholders([join(ws, "gitconfig")])).toThrow(SandboxContentError);
    expect(readFileSync(join(ws, "gitconfig"), "utf8")).toBe("mine\n");
  });

  it("after a command, each protected path that now exists is named", () => {
    writeFileSync(join(ws, "gitconfig"), "x\n");
    expect(createdDuringCommand([join(ws, "gitconfig"), join(ws, "bashrc")])).toEqual([
      `warning: ${join(ws, "gitconfig")} was created during this command; the host loads or runs it later (a shell start-up file, git or harness config, a program): check it before then`,
    ]);
  });
});

describe.skipIf(!HAS_BWRAP || BWRAP === undefined || BASH === undefined)(
  `in real bubblewrap ${BWRAP_REASON}`,
  () => {
    const runner = (keepAbsent: readonly string[]) =>
      hostEnvironmentRunner({
        bwrapPath: BWRAP ?? "",
        bash: BASH ?? "",
        workspace: ws,
        keepAbsent,
      });

    it("a dangling link's target at the root: not created, however tried; the placeholder goes after", async () => {
      const target = join(ws, "gitconfig");
      const result = await runner([target]).run(
        "ls -A; echo x >> gitconfig && echo WROTE; rm -f gitconfig && echo DELETED; " +
          "mv gitconfig g2 && echo RENAMED; ln -s /tmp/x gitconfig2 && mv -fT gitconfig2 gitconfig && echo LINKED; " +
          "echo ok > other && echo OTHER",
        ws,
        LIMITS,
      );
      // The command saw the placeholder, could change nothing of it, and still wrote elsewhere.
      expect(result.output).toContain("gitconfig\n");
      expect(result.output).not.toMatch(/WROTE|DELETED|RENAMED|LINKED/u);
      expect(result.output).toContain("OTHER");
      expect(existsSync(target)).toBe(false);
      expect(readFileSync(join(ws, "other"), "utf8")).toBe("ok\n");
    });

    it("its folder not made yet: held at the folder's name; once the folder exists, it is read-only", async () => {
      const target = join(ws, "dots", "gitconfig");
      const first = await runner([target]).run(
        "mkdir -p dots && echo x > dots/gitconfig && echo WROTE",
        ws,
        LIMITS,
      );
      expect(first.output).not.toContain("WROTE");
      expect(existsSync(join(ws, "dots"))).toBe(false);

      mkdirSync(join(ws, "dots")); // as write_file of dots/other would
      const second = await runner([target]).run(
        "echo ok > dots/other && echo OTHER; echo x > dots/gitconfig && echo WROTE",
        ws,
        LIMITS,
      );
      // The folder is then bound read-only whole, as for any protected file not made yet in it.
      expect(second.output).not.toContain("WROTE");
      expect(existsSync(target)).toBe(false);
    });

    it("a leftover placeholder (a killed run) is bound as it is and kept", async () => {
      writeFileSync(join(ws, "gitconfig"), "");
      const result = await runner([join(ws, "gitconfig")]).run(
        "echo x >> gitconfig && echo WROTE",
        ws,
        LIMITS,
      );
      expect(result.output).not.toContain("WROTE");
      expect(readFileSync(join(ws, "gitconfig"), "utf8")).toBe("");
    });
  },
);
