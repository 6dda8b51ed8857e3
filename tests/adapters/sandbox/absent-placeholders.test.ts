/**
 * What the host loads later but does not exist yet (a dangling `~/.gitconfig` link into the
 * workspace, a script git's config names at the workspace's root) cannot be bound read-only: the
 * sandbox holds its name with an empty read-only placeholder for the command's length, removes
 * it after, and says so when something it protects exists after a command.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  absentCoverage,
  createdDuringCommand,
  emptyAtRoot,
  holdPlaceholders,
  makePlaceholders,
  releasePlaceholders,
  removePlaceholders,
} from "../../../src/adapters/sandbox/absent-placeholders.js";
import {
  DirectoryPlaceholderLedger,
  MemoryPlaceholderLedger,
} from "../../../src/adapters/sandbox/placeholder-ledger.js";
import { changedNotes, identitiesOf } from "../../../src/adapters/sandbox/protected-identity.js";
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
    // Held too: an empty file may be another run's placeholder, which the ledger knows.
    expect(emptyAtRoot(ws, [join(ws, "gitconfig")])).toEqual([join(ws, "gitconfig")]);
    const ledger = new MemoryPlaceholderLedger();
    expect(holdPlaceholders(ledger, [join(ws, "gitconfig")])).toEqual([]);
    expect(readFileSync(join(ws, "gitconfig"), "utf8")).toBe("");
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
    const ledger = new MemoryPlaceholderLedger();
    const made = holdPlaceholders(ledger, [join(ws, "a"), join(ws, "b")]);
    expect(readFileSync(join(ws, "a"), "utf8")).toBe("");
    expect(readFileSync(join(ws, "b"), "utf8")).toBe("");
    expect(releasePlaceholders(ledger, made)).toEqual([]);
    expect(existsSync(join(ws, "a"))).toBe(false);
    expect(existsSync(join(ws, "b"))).toBe(false);
  });

  it("a changed placeholder is left and named", () => {
    const ledger = new MemoryPlaceholderLedger();
    const made = holdPlaceholders(ledger, [join(ws, "gitconfig")]);
    writeFileSync(join(ws, "gitconfig"), "[core]\n\tfsmonitor = sh evil\n");
    expect(releasePlaceholders(ledger, made)).toEqual([
      `warning: ${join(ws, "gitconfig")} is not the empty placeholder the harness made there, so it was left as it is; the host loads or runs what is there later: check it`,
    ]);
    expect(readFileSync(join(ws, "gitconfig"), "utf8")).toContain("fsmonitor");
  });

  it("a name already taken is never made over: the command is refused", () => {
    writeFileSync(join(ws, "gitconfig"), "mine\n");
    const ledger = new MemoryPlaceholderLedger();
    expect(() => holdPlaceholders(ledger, [join(ws, "gitconfig")])).toThrow(SandboxContentError);
    expect(readFileSync(join(ws, "gitconfig"), "utf8")).toBe("mine\n");
  });

  it("two runs sharing the ledger: the second holds the first's placeholder, the last to let go removes it", () => {
    const ledgerDir = join(base, "state", "placeholders");
    const first = new DirectoryPlaceholderLedger(ledgerDir);
    const second = new DirectoryPlaceholderLedger(ledgerDir);
    const name = join(ws, "gitconfig");
    const heldByFirst = holdPlaceholders(first, [name]);
    const heldBySecond = holdPlaceholders(second, [name]);
    expect(heldBySecond).toEqual(heldByFirst);
    // The first run's command ends: the second's command still has it bound, so it stays.
    expect(releasePlaceholders(first, heldByFirst)).toEqual([]);
    expect(readFileSync(name, "utf8")).toBe("");
    expect(releasePlaceholders(second, heldBySecond)).toEqual([]);
    expect(existsSync(name)).toBe(false);
  });

  it("a placeholder whose holder is gone (a killed run) is held and removed by the next run", () => {
    const ledgerDir = join(base, "state", "placeholders");
    const name = join(ws, "gitconfig");
    const killed = new DirectoryPlaceholderLedger(ledgerDir);
    holdPlaceholders(killed, [name]);
    const ledgerFile = join(ledgerDir, "ledger.json");
    // No process has id 2**22 + 1 (above Linux's pid_max).
    writeFileSync(
      ledgerFile,
      readFileSync(ledgerFile, "utf8").replaceAll(`"${killed.holder}"`, `"4194305:gone"`),
    );
    const next = new DirectoryPlaceholderLedger(ledgerDir);
    const held = holdPlaceholders(next, [name]);
    expect(held.map((placeholder) => placeholder.path)).toEqual([name]);
    expect(releasePlaceholders(next, held)).toEqual([]);
    expect(existsSync(name)).toBe(false);
  });
});

describe("placeholders without a ledger (one run alone)", () => {
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

describe("protected paths compared before and after a command", () => {
  it("names each that was created, changed, replaced or removed, and nothing else", () => {
    const same = join(ws, "same");
    const changed = join(ws, "changed");
    const removed = join(ws, "removed");
    const created = join(ws, "created");
    for (const file of [same, changed, removed]) writeFileSync(file, "a\n");
    const paths = [same, changed, removed, created];
    const before = identitiesOf(paths, new Map());
    writeFileSync(changed, "b\n");
    rmSync(removed);
    writeFileSync(created, "x\n");
    expect(changedNotes(before, identitiesOf(paths, new Map()))).toEqual([
      `warning: ${changed} was changed or replaced during this command; the host loads or runs it later (a shell start-up file, git or harness config, a program): check it before then`,
      `warning: ${removed} was removed during this command; the host loads or runs it later (a shell start-up file, git or harness config, a program): check it before then`,
      `warning: ${created} was created during this command; the host loads or runs it later (a shell start-up file, git or harness config, a program): check it before then`,
    ]);
  });

  it("a placeholder in the ledger counts as absent: another run's coming and going is no change", () => {
    const name = join(ws, "gitconfig");
    const ledger = new MemoryPlaceholderLedger();
    const before = ledger.update((entries) => identitiesOf([name], entries));
    const held = holdPlaceholders(ledger, [name]);
    expect(ledger.update((entries) => changedNotes(before, identitiesOf([name], entries)))).toEqual(
      [],
    );
    releasePlaceholders(ledger, held);
  });
});

describe.skipIf(!HAS_BWRAP || BWRAP === undefined || BASH === undefined)(
  `in real bubblewrap ${BWRAP_REASON}`,
  () => {
    const runner = (keepUnchanged: readonly string[]) =>
      hostEnvironmentRunner({
        bwrapPath: BWRAP ?? "",
        bash: BASH ?? "",
        workspace: ws,
        keepUnchanged,
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

    it("the older option keepAbsent keeps a name from being created as keepUnchanged does", async () => {
      const target = join(ws, "gitconfig");
      const result = await hostEnvironmentRunner({
        bwrapPath: BWRAP ?? "",
        bash: BASH ?? "",
        workspace: ws,
        keepAbsent: [target],
      }).run("echo x > gitconfig && echo WROTE", ws, LIMITS);
      expect(result.output).not.toContain("WROTE");
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

    /**
     * Two runs in one workspace, their commands overlapping: A holds the placeholder, B's command
     * starts while it is there and is still running when A's command ends. Unlinking a mount
     * point detaches its binds in every other namespace, so if A removed it then, B's command
     * could create the file.
     */
    async function overlapping(ledgers: { a?: string; b?: string }) {
      const target = join(ws, "gitconfig");
      const run = (ledger: string | undefined) =>
        hostEnvironmentRunner({
          bwrapPath: BWRAP ?? "",
          bash: BASH ?? "",
          workspace: ws,
          keepUnchanged: [target],
          ...(ledger === undefined ? {} : { placeholderLedger: ledger }),
        });
      const waitFor = (file: string) =>
        vi.waitFor(
          () => {
            if (!existsSync(join(base, file))) throw new Error(`waiting for ${file}`);
          },
          { timeout: 20_000, interval: 10 },
        );
      // The sandbox's /tmp is its own: the signals go through the workspace.
      const wait = (name: string) => `until [ -e ${name} ]; do sleep 0.02; done`;
      const a = run(ledgers.a).run(`touch started-a; ${wait("end-a")}`, ws, LIMITS);
      await waitFor(join("ws", "started-a"));
      const b = run(ledgers.b).run(
        `touch started-b; ${wait("end-b")}; echo '[core]' > gitconfig && echo WROTE`,
        ws,
        LIMITS,
      );
      await waitFor(join("ws", "started-b"));
      writeFileSync(join(ws, "end-a"), "");
      await a;
      writeFileSync(join(ws, "end-b"), "");
      return { target, b: await b };
    }

    it("two runs sharing the ledger: the one whose command ends first leaves the placeholder the other holds", async () => {
      const ledger = join(base, "state", "placeholders");
      const { target, b } = await overlapping({ a: ledger, b: ledger });
      expect(b.output).not.toContain("WROTE");
      expect(b.notes).toBeUndefined();
      // B let it go last and removed it: nothing is left, as before either run.
      expect(existsSync(target)).toBe(false);
    });

    it("two runs that do not share a ledger: B's command may then create it, and B's result says so", async () => {
      const { target, b } = await overlapping({ a: join(base, "a"), b: join(base, "b") });
      // Unlinking a mount point detaches its binds elsewhere (Linux 3.18 and later): B wrote.
      expect(b.output).toContain("WROTE");
      expect(readFileSync(target, "utf8")).toBe("[core]\n");
      expect(b.notes).toContain(
        `warning: ${target} was changed or replaced during this command; the host loads or runs it later (a shell start-up file, git or harness config, a program): check it before then`,
      );
    });
  },
);
