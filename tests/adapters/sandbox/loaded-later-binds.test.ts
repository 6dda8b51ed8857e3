/**
 * Where a file tool's write of a file loaded later asks (chapter 4), a sandboxed command finds
 * those that exist read-only, and one it creates is named after its output: the person approved
 * the command, not what the code it runs (maybe a file the model wrote unasked) writes.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadedLaterPlaces } from "../../../src/adapters/filesystem/index.js";
import {
  COMMANDS_WRITE_FOLDERS,
  loadedLaterReason,
  reasonOutsideInstalledCode,
} from "../../../src/core/policy/loaded-later-files.js";
import { BWRAP_REASON, HAS_BWRAP, hostEnvironmentRunner } from "../../support/bubblewrap.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";

const BASH = hostExecutable("bash");
const LIMITS = { timeoutMs: 30_000, maxOutputBytes: 64 * 1024 };

let base: string;
let ws: string;

beforeEach(async () => {
  base = await mkdtemp(join(await realpath(tmpdir()), "loaded-later-binds-"));
  ws = join(base, "ws");
  mkdirSync(join(ws, ".github", "workflows"), { recursive: true });
  mkdirSync(join(ws, "docs", "api"), { recursive: true });
  mkdirSync(join(ws, "node_modules", "x"), { recursive: true });
  writeFileSync(join(ws, "AGENTS.md"), "Run the tests.\n");
  writeFileSync(join(ws, "docs", "api", "CLAUDE.md"), "Be brief.\n");
  writeFileSync(join(ws, ".github", "workflows", "ci.yml"), "on: push\n");
  writeFileSync(join(ws, "package.json"), '{"scripts":{"test":"node test.js"}}\n');
  writeFileSync(join(ws, "node_modules", "x", "AGENTS.md"), "not scanned\n");
  writeFileSync(join(ws, "README.md"), "readme\n");
  symlinkSync("AGENTS.md", join(ws, "notes.md"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("loadedLaterPlaces", () => {
  it("finds each file and folder on the list, by name at any depth, and where a link of such a name leads", () => {
    symlinkSync(join("docs", "rules.md"), join(ws, "CLAUDE.md"));
    writeFileSync(join(ws, "docs", "rules.md"), "rules\n");
    expect(
      loadedLaterPlaces(ws, reasonOutsideInstalledCode)
        .map((entry) => [entry.path, entry.leadsTo])
        .sort(),
    ).toEqual(
      [
        [join(ws, ".github"), undefined],
        [join(ws, "AGENTS.md"), undefined],
        [join(ws, "CLAUDE.md"), join(ws, "docs", "rules.md")],
        [join(ws, "docs", "api", "CLAUDE.md"), undefined],
        [join(ws, "package.json"), undefined],
      ].sort(),
    );
  });
});

describe("loadedLaterPlaces in a folder loaded whole", () => {
  it("names each link in it that leads out of it, and where it leads, through folders it leads to", () => {
    writeFileSync(join(ws, "ci.yml"), "on: push\n");
    mkdirSync(join(ws, "conf", "deep"), { recursive: true });
    writeFileSync(join(ws, "conf", "vs.json"), "{}\n");
    writeFileSync(join(ws, "shared.json"), "{}\n");
    mkdirSync(join(ws, ".vscode"));
    symlinkSync(join("..", "..", "ci.yml"), join(ws, ".github", "workflows", "release.yml"));
    symlinkSync(join("..", "conf", "vs.json"), join(ws, ".vscode", "settings.json"));
    // Within the folder: the folder's bind covers it already.
    symlinkSync("ci.yml", join(ws, ".github", "workflows", "again.yml"));
    // Not made yet: a write there makes what CI runs.
    symlinkSync(join("..", "..", "later.yml"), join(ws, ".github", "workflows", "later.yml"));
    // A folder it leads to is loaded whole too, and so are the links in that one.
    symlinkSync(join("..", "conf"), join(ws, ".vscode", "conf"));
    symlinkSync(join("..", "..", "shared.json"), join(ws, "conf", "deep", "shared.json"));
    const ci = loadedLaterReason(".github/x") ?? "";
    const editor = loadedLaterReason(".vscode/x") ?? "";
    expect(
      loadedLaterPlaces(ws, reasonOutsideInstalledCode)
        .filter((entry) => entry.link === true)
        .map((entry) => [entry.path, entry.leadsTo ?? entry.wouldLeadTo, entry.reason])
        .sort(),
    ).toEqual(
      [
        [join(ws, ".github", "workflows", "release.yml"), join(ws, "ci.yml"), ci],
        [join(ws, ".github", "workflows", "later.yml"), join(ws, "later.yml"), ci],
        [join(ws, ".vscode", "settings.json"), join(ws, "conf", "vs.json"), editor],
        [join(ws, ".vscode", "conf"), join(ws, "conf"), editor],
        [join(ws, "conf", "deep", "shared.json"), join(ws, "shared.json"), editor],
      ].sort(),
    );
  });
});

describe("loadedLaterPlaces on the way to where a link leads", () => {
  it("names each link of the workspace met on the way, files and folders, with where it all leads", () => {
    mkdirSync(join(ws, "shared"));
    writeFileSync(join(ws, "shared", "rules.md"), "rules\n");
    symlinkSync("shared", join(ws, "common"));
    symlinkSync(join("common", "rules.md"), join(ws, "hop.md"));
    symlinkSync("hop.md", join(ws, "CLAUDE.md"));
    const rules = join(ws, "shared", "rules.md");
    expect(
      loadedLaterPlaces(ws, reasonOutsideInstalledCode)
        .filter((entry) => entry.link === true)
        .map((entry) => [entry.path, entry.leadsTo]),
    ).toEqual([
      [join(ws, "CLAUDE.md"), rules],
      [join(ws, "hop.md"), rules],
      [join(ws, "common"), rules],
    ]);
  });
});

describe("installed code, which commands may write", () => {
  it("is only the folders every install writes, nothing a project names for itself", () => {
    expect([...COMMANDS_WRITE_FOLDERS].sort()).toEqual([".venv", ".yarn", "node_modules", "venv"]);
  });
});

describe.skipIf(!HAS_BWRAP || BWRAP === undefined || BASH === undefined)(
  `in real bubblewrap ${BWRAP_REASON}`,
  () => {
    const runner = (keep: boolean) =>
      hostEnvironmentRunner({
        bwrapPath: BWRAP ?? "",
        bash: BASH ?? "",
        workspace: ws,
        ...(keep ? { loadedLater: reasonOutsideInstalledCode } : {}),
      });

    const ATTACK =
      "echo evil >> AGENTS.md && echo W1; echo evil >> notes.md && echo W2; " +
      "echo evil > docs/api/CLAUDE.md && echo W3; echo evil >> .github/workflows/ci.yml && echo W4; " +
      "echo evil > .github/workflows/new.yml && echo W5; " +
      "echo '{}' > package.json && echo W6; rm -f AGENTS.md && echo W7; mv package.json p && echo W8; " +
      "echo evil >> docs/rules.md && echo W9; " +
      "echo ok >> README.md && echo OK; mkdir -p .vscode sub && echo '{}' > .vscode/tasks.json && " +
      "echo x > sub/AGENTS.md && echo CREATED; ln -s README.md GEMINI.md && echo LINKED";

    it("existing ones are read-only; new ones are named after the output; the rest is writable", async () => {
      // CLAUDE.md is a link: the file it leads to is what the next session reads.
      writeFileSync(join(ws, "docs", "rules.md"), "rules\n");
      symlinkSync(join("docs", "rules.md"), join(ws, "CLAUDE.md"));
      const result = await runner(true).run(ATTACK, ws, LIMITS);

      expect(result.output).not.toMatch(/W[1-9]/u);
      expect(readFileSync(join(ws, "docs", "rules.md"), "utf8")).toBe("rules\n");
      expect(result.output).toContain("OK");
      expect(readFileSync(join(ws, "AGENTS.md"), "utf8")).toBe("Run the tests.\n");
      expect(readFileSync(join(ws, "docs", "api", "CLAUDE.md"), "utf8")).toBe("Be brief.\n");
      expect(readFileSync(join(ws, ".github", "workflows", "ci.yml"), "utf8")).toBe("on: push\n");
      expect(existsSync(join(ws, ".github", "workflows", "new.yml"))).toBe(false);
      expect(readFileSync(join(ws, "package.json"), "utf8")).toBe(
        '{"scripts":{"test":"node test.js"}}\n',
      );
      expect(readFileSync(join(ws, "README.md"), "utf8")).toBe("readme\nok\n");
      // Not made yet, they could not be held: the command made them, and its result says so.
      expect(result.output).toContain("CREATED");
      expect(result.output).toContain("LINKED");
      expect(result.notes).toContain(
        `warning: ${join(ws, "GEMINI.md")} was created during this command; instructions the next agent session loads into its prompt, in any chapter (this harness and other coding agents), and no one was asked about it: check it before then`,
      );
      expect(result.notes).toContain(
        `warning: ${join(ws, ".vscode")} was created during this command; editor settings and tasks: an editor opening the folder runs its tasks and the programs its settings name, and no one was asked about it: check it before then`,
      );
      expect(result.notes).toContain(
        `warning: ${join(ws, "sub", "AGENTS.md")} was created during this command; instructions the next agent session loads into its prompt, in any chapter (this harness and other coding agents), and no one was asked about it: check it before then`,
      );
    });

    it("a lockfile, a PnP loader and what a requirements/ folder holds are read-only, as code is", async () => {
      // Not installed code: a folder of requirement lists holds nothing a command may change
      // unseen, and a loaded-later file inside it is held as anywhere else.
      mkdirSync(join(ws, "requirements"));
      writeFileSync(join(ws, "requirements", "base.txt"), "flask\n");
      writeFileSync(join(ws, "requirements", ".envrc"), "\n");
      writeFileSync(join(ws, "package-lock.json"), "{}\n");
      writeFileSync(join(ws, ".pnp.cjs"), "\n");
      const result = await runner(true).run(
        "echo x >> package-lock.json && echo L1; echo x >> .pnp.cjs && echo L2; " +
          "echo x >> requirements/base.txt && echo L3; echo x >> requirements/.envrc && echo L4; " +
          "rm -f package-lock.json && ln -s /tmp package-lock.json && echo L5; " +
          "mkdir -p requirements/.vscode && echo '{}' > requirements/.vscode/tasks.json && echo MADE",
        ws,
        LIMITS,
      );
      expect(result.output).not.toMatch(/L[1-5]/u);
      expect(readFileSync(join(ws, "package-lock.json"), "utf8")).toBe("{}\n");
      expect(readFileSync(join(ws, "requirements", ".envrc"), "utf8")).toBe("\n");
      // The folder is held whole: nothing is made in it either.
      expect(result.output).not.toContain("MADE");
      expect(existsSync(join(ws, "requirements", ".vscode"))).toBe(false);
    });

    it("names a program a command makes in an npm workspace package's own node_modules/.bin", async () => {
      writeFileSync(
        join(ws, "package.json"),
        JSON.stringify({ scripts: { test: "node test.js" }, workspaces: ["packages/*"] }),
      );
      mkdirSync(join(ws, "packages", "core", "node_modules", ".bin"), { recursive: true });
      writeFileSync(join(ws, "packages", "core", "package.json"), '{"name":"@mono/core"}');
      const result = await runner(true).run(
        "echo 'echo pwned' > packages/core/node_modules/.bin/mytool && echo MADE",
        ws,
        LIMITS,
      );
      expect(result.output).toContain("MADE");
      expect(result.notes).toContain(
        `warning: ${join(ws, "packages/core/node_modules/.bin")} got 1 program made or changed during this command (mytool); an editor, npm scripts, Python or the shell run them later: check them before then`,
      );
    });

    it("installed code stays writable to a command, as an install needs; a linter's config does not", async () => {
      mkdirSync(join(ws, ".venv", "bin"), { recursive: true });
      writeFileSync(join(ws, ".venv", "bin", "activate"), "# activate\n");
      writeFileSync(join(ws, ".venv", "setup.cfg"), "[x]\n");
      writeFileSync(join(ws, ".eslintrc.json"), "{}\n");
      writeFileSync(join(ws, "conftest.py"), "\n");
      const result = await runner(true).run(
        "echo x >> .venv/bin/activate && echo V1; echo x >> .venv/setup.cfg && echo V2; " +
          "echo x > node_modules/x/index.js && echo N1; " +
          "mkdir -p node_modules/.bin && echo x > node_modules/.bin/eslint && echo N2; " +
          'echo \'{"parser":"./p.cjs"}\' > .eslintrc.json && echo E1; echo x >> conftest.py && echo P1; ' +
          "echo '{}' > .devcontainer.json && echo D1",
        ws,
        LIMITS,
      );
      expect(result.output).toMatch(/V1[\s\S]*V2[\s\S]*N1[\s\S]*N2/u);
      expect(result.output).not.toMatch(/E1|P1/u);
      expect(readFileSync(join(ws, ".eslintrc.json"), "utf8")).toBe("{}\n");
      expect(readFileSync(join(ws, "conftest.py"), "utf8")).toBe("\n");
      expect(result.notes).toContain(
        `warning: ${join(ws, ".devcontainer.json")} was created during this command; ${loadedLaterReason(".devcontainer.json") ?? ""}, and no one was asked about it: check it before then`,
      );
      // Writable, but the programs an editor or npm runs later are named after the command.
      expect(result.notes).toContain(
        `warning: ${join(ws, "node_modules/.bin")} was created during this command, with 1 program (eslint); an editor, npm scripts, Python or the shell run them later: check them before then`,
      );
      expect(result.notes).toContain(
        `warning: ${join(ws, ".venv/bin")} got 1 program made or changed during this command (activate); an editor, npm scripts, Python or the shell run them later: check them before then`,
      );
      expect((result.notes ?? []).join("\n")).not.toMatch(/node_modules\/x|setup\.cfg/u);
    });

    it("a venv's start-up files and a .bin swapped for a link are named too", async () => {
      mkdirSync(join(ws, ".venv", "lib", "python3.11", "site-packages"), { recursive: true });
      mkdirSync(join(ws, "tools"), { recursive: true });
      writeFileSync(join(ws, "tools", "foo"), "#!/bin/sh\n");
      mkdirSync(join(ws, "node_modules", ".bin"), { recursive: true });
      const result = await runner(true).run(
        "echo 'import os' > .venv/lib/python3.11/site-packages/zz.pth && " +
          "echo x > .venv/lib/python3.11/site-packages/plain.py && " +
          "rm -r node_modules/.bin && ln -s ../tools node_modules/.bin && echo DONE",
        ws,
        LIMITS,
      );
      expect(result.output).toContain("DONE");
      const notes = (result.notes ?? []).join("\n");
      expect(notes).toContain(
        `${join(ws, ".venv/lib/python3.11/site-packages")} got 1 program made or changed during this command (zz.pth)`,
      );
      expect(notes).toContain(
        `${join(ws, "node_modules/.bin")} got 2 programs made or changed during this command (the folder itself, foo)`,
      );
      expect(notes).not.toContain("plain.py");
    });

    it("a module a venv's .pth imports, and a sitecustomize package, are named when a command changes them", async () => {
      const site = join(ws, ".venv", "lib", "python3.11", "site-packages");
      mkdirSync(join(site, "_hack"), { recursive: true });
      writeFileSync(join(site, "distutils-precedence.pth"), "import _hack; _hack.add()\n");
      writeFileSync(join(site, "_hack", "__init__.py"), "def add(): pass\n");
      const result = await runner(true).run(
        "echo 'import os' >> .venv/lib/python3.11/site-packages/_hack/__init__.py && " +
          "mkdir .venv/lib/python3.11/site-packages/sitecustomize && " +
          "echo x > .venv/lib/python3.11/site-packages/sitecustomize/__init__.py && echo DONE",
        ws,
        LIMITS,
      );
      expect(result.output).toContain("DONE");
      expect((result.notes ?? []).join("\n")).toContain(
        `${site} got 2 programs made or changed during this command (sitecustomize/__init__.py, _hack/__init__.py)`,
      );
    });

    it("one changed through a hard link made before the run is named: a bind covers a name, not the file", async () => {
      linkSync(join(ws, "AGENTS.md"), join(ws, "hard.md"));
      const result = await runner(true).run("echo evil >> hard.md && echo THROUGH", ws, LIMITS);
      expect(result.output).toContain("THROUGH");
      expect(result.notes).toContain(
        `warning: ${join(ws, "AGENTS.md")} was changed during this command through another name (a hard link), though it was read-only; a later session, an editor or CI loads it: check it before then`,
      );
    });

    const INSTRUCTIONS =
      "instructions the next agent session loads into its prompt, in any chapter (this harness and other coding agents)";

    it.each([
      [
        "retargeted",
        "ln -sf README.md CLAUDE.md",
        'was changed or replaced (it now leads to "README.md")',
      ],
      [
        "replaced by a file",
        "rm CLAUDE.md && echo evil > CLAUDE.md",
        "was replaced by a file or folder that is not a link",
      ],
      ["removed", "rm CLAUDE.md", "was removed"],
    ])(
      "a link of a listed name the command %s is named: the link is compared, not only where it leads",
      async (_what, command, change) => {
        writeFileSync(join(ws, "docs", "rules.md"), "rules\n");
        symlinkSync(join("docs", "rules.md"), join(ws, "CLAUDE.md"));
        const result = await runner(true).run(`${command} && echo DONE`, ws, LIMITS);
        expect(result.output).toContain("DONE");
        expect(readFileSync(join(ws, "docs", "rules.md"), "utf8")).toBe("rules\n");
        expect(result.notes).toContain(
          `warning: ${join(ws, "CLAUDE.md")}, a link to "docs/rules.md", ${change} during this command; ${INSTRUCTIONS}, and no one was asked about it: check it before then`,
        );
      },
    );

    it.each([
      ["CLAUDE.md", "docs/rules.md", "echo evil > docs/rules.md", "docs/rules.md"],
      ["CLAUDE.md", "rules/main.md", "mkdir rules && echo evil > rules/main.md", "rules/main.md"],
      [".vscode", "editor", "mkdir editor && echo '{}' > editor/tasks.json", "editor"],
    ])(
      "a dangling link %s -> %s: the file the command makes where it leads is named",
      async (link, target, command, made) => {
        symlinkSync(target, join(ws, link));
        const result = await runner(true).run(`${command} && echo MADE`, ws, LIMITS);
        expect(result.output).toContain("MADE");
        expect(result.notes).toContain(
          `warning: ${join(ws, made)} was created during this command, where the link ${join(ws, link)} leads; ${loadedLaterReason(link) ?? loadedLaterReason(`${link}/x`) ?? ""}, and no one was asked about it: check it before then`,
        );
      },
    );

    it("where a link inside a folder bound whole leads is read-only too; a file made where one dangles is named", async () => {
      writeFileSync(join(ws, "ci.yml"), "on: push\n");
      mkdirSync(join(ws, "conf"));
      writeFileSync(join(ws, "conf", "vs.json"), "{}\n");
      mkdirSync(join(ws, ".vscode"));
      symlinkSync(join("..", "..", "ci.yml"), join(ws, ".github", "workflows", "release.yml"));
      symlinkSync(join("..", "conf", "vs.json"), join(ws, ".vscode", "settings.json"));
      symlinkSync(join("..", "..", "later.yml"), join(ws, ".github", "workflows", "later.yml"));
      const result = await runner(true).run(
        "echo evil >> ci.yml && echo W1; echo evil > conf/vs.json && echo W2; " +
          "echo evil >> .github/workflows/release.yml && echo W3; rm -f ci.yml && echo W4; " +
          "echo ok >> README.md && echo OK; echo evil > later.yml && echo MADE",
        ws,
        LIMITS,
      );
      expect(result.output).not.toMatch(/W[1-4]/u);
      expect(result.output).toContain("OK");
      expect(readFileSync(join(ws, "ci.yml"), "utf8")).toBe("on: push\n");
      expect(readFileSync(join(ws, "conf", "vs.json"), "utf8")).toBe("{}\n");
      expect(result.output).toContain("MADE");
      expect(result.notes).toContain(
        `warning: ${join(ws, "later.yml")} was created during this command, where the link ${join(ws, ".github", "workflows", "later.yml")} leads; ${loadedLaterReason(".github/x") ?? ""}, and no one was asked about it: check it before then`,
      );
    });

    it.each([
      // A link on the way to where a listed link leads.
      ["CLAUDE.md", "notes2.md", "notes2.md", "docs/rules.md", "docs/rules.md"],
      // A folder on the way that is a link.
      ["CLAUDE.md", "shared/rules.md", "shared", "docs", "docs/rules.md"],
      // On the way from a link inside a folder loaded whole.
      [
        ".github/workflows/release.yml",
        "../../ci2.yml",
        "ci2.yml",
        "docs/rules.md",
        "docs/rules.md",
      ],
    ])(
      "%s -> %s through the link %s -> %s: retargeting the one on the way is named",
      async (link, target, way, wayTarget, lands) => {
        writeFileSync(join(ws, "docs", "rules.md"), "rules\n");
        symlinkSync(wayTarget, join(ws, way));
        symlinkSync(target, join(ws, link));
        const result = await runner(true).run(
          `echo evil >> ${lands} && echo W1; ln -sfn README.md ${way} && echo DONE`,
          ws,
          LIMITS,
        );
        expect(result.output).not.toContain("W1");
        expect(result.output).toContain("DONE");
        expect(readFileSync(join(ws, "docs", "rules.md"), "utf8")).toBe("rules\n");
        expect(result.notes).toContain(
          `warning: ${join(ws, way)}, a link to ${JSON.stringify(wayTarget)}, was changed or replaced (it now leads to "README.md") during this command; ${loadedLaterReason(link) ?? loadedLaterReason(`${link}/x`) ?? ""}, and no one was asked about it: check it before then`,
        );
      },
    );

    it("a link of a listed name left alone is not named", async () => {
      writeFileSync(join(ws, "docs", "rules.md"), "rules\n");
      symlinkSync(join("docs", "rules.md"), join(ws, "CLAUDE.md"));
      const result = await runner(true).run("cat CLAUDE.md", ws, LIMITS);
      expect(result.output).toBe("rules\n");
    });

    it("where file tools' writes are not asked about, commands write them as any file", async () => {
      const result = await runner(false).run(ATTACK, ws, LIMITS);
      expect(result.output).toContain("W1");
      expect(result.notes).toBeUndefined();
    });

    describe("only for a command no person approved (the daily profile)", () => {
      const daily = () =>
        hostEnvironmentRunner({
          bwrapPath: BWRAP ?? "",
          bash: BASH ?? "",
          workspace: ws,
          loadedLater: reasonOutsideInstalledCode,
          loadedLaterFor: "unapproved-commands",
        });
      const PLANT = "echo evil >> AGENTS.md && echo W1; echo 'export X=1' > .envrc && echo CREATED";

      it("one a rule let run finds them read-only, and one it creates is named", async () => {
        const result = await daily().run(PLANT, ws, { ...LIMITS, unapproved: true });
        expect(result.output).not.toContain("W1");
        expect(readFileSync(join(ws, "AGENTS.md"), "utf8")).toBe("Run the tests.\n");
        expect(result.output).toContain("CREATED");
        expect(result.notes).toContain(
          `warning: ${join(ws, ".envrc")} was created during this command; ${loadedLaterReason(".envrc") ?? ""}, and no one was asked about it: check it before then`,
        );
      });

      it("one it creates under a folder named with a newline is named in one whole note", async () => {
        const made = "mkdir \"$(printf 'a\\nb')\" && echo x > \"$(printf 'a\\nb')/AGENTS.md\"";
        const result = await daily().run(`${made} && echo MADE`, ws, {
          ...LIMITS,
          unapproved: true,
        });
        expect({ output: result.output, notes: result.notes }).toEqual({
          output: "MADE\n",
          notes: [
            `warning: ${join(ws, "a\nb", "AGENTS.md")} was created during this command; ${loadedLaterReason("AGENTS.md") ?? ""}, and no one was asked about it: check it before then`,
          ],
        });
      });

      it("one the person approved at the prompt writes them as chapter 3's commands do", async () => {
        const result = await daily().run(PLANT, ws, LIMITS);
        expect({ output: result.output, notes: result.notes }).toEqual({
          output: "W1\nCREATED\n",
          notes: undefined,
        });
        expect(readFileSync(join(ws, "AGENTS.md"), "utf8")).toBe("Run the tests.\nevil\n");
      });
    });
  },
);
