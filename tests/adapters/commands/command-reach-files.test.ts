/**
 * The workspace files a command reaches without naming them by a path with a slash: a word that
 * names a file, the makefile make reads, the entry node takes for a directory, and the files of
 * node's test runner.
 */
import { createHash } from "node:crypto";
import { mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  npmScriptRows,
  npmScriptText,
  shellTextReach,
} from "../../../src/adapters/commands/index.js";
import { UnbindableCommandError } from "../../../src/core/grants/unbindable-command.js";
import { authorizeRunCommand } from "../../support/p04-authorize.js";
import { scratchWorkspace } from "../../support/scratch-workspace.js";

let ws = "";
const write = scratchWorkspace("reach-files-", (root) => (ws = root));
function sha(content: string): string {
  return `sha256 ${createHash("sha256").update(content).digest("hex")}`;
}
const words = (text: string): string[] => text.split(" ");

describe("a word that names a workspace file is bound, slash or not", () => {
  it.each([
    ["awk -f prog.awk data.txt", "awk", "prog.awk"],
    ["sed -f edit.sed notes.txt", "sed", "edit.sed"],
    ["deno run t.ts", "deno", "t.ts"],
    ["php t.php", "php", "t.php"],
    ["lua t.lua", "lua", "t.lua"],
    ["uv run t.py", "uv", "t.py"],
    ["make -f build.mk", "make", "build.mk"],
    ["jest --config=jest.config.js", "jest", "jest.config.js"],
    ["awk -fprog.awk", "awk", "prog.awk"],
  ])("%s binds %s's %s by content", (command, shown, file) => {
    const digest = write(file, "one\n");
    const rows = (npmScriptText(ws, words(command)) ?? "").split(" · ");
    expect(rows).toContain(`and ${shown} is given ${file} (${digest})`);
    write(file, "two\n");
    expect((npmScriptText(ws, words(command)) ?? "").split(" · ")).toContain(
      `and ${shown} is given ${file} (${sha("two\n")})`,
    );
  });

  it("a word naming nothing, a directory or a file outside binds nothing", () => {
    mkdirSync(join(ws, "src"));
    expect(npmScriptText(ws, ["grep", "-rn", "TODO", "src", "..", "/etc/hostname"])).toBe(
      undefined,
    );
  });

  it("an assignment's value before a command, in a script: MAKEFILES and BASH_ENV", () => {
    const extra = write("extra.mk", "x:\n");
    const env = write("env.sh", "X=1\n");
    expect(shellTextReach(ws, "MAKEFILES=extra.mk BASH_ENV=env.sh true")).toBe(
      `and MAKEFILES is given extra.mk (${extra}) · and BASH_ENV is given env.sh (${env})`,
    );
  });

  it("a link a word names is bound by where it points, and what it points at in the workspace", () => {
    const target = write("real.txt", "data\n");
    symlinkSync("real.txt", join(ws, "link.txt"));
    expect(npmScriptText(ws, ["cat", "link.txt"])).toBe(
      `and cat is given link.txt, a symbolic link to "real.txt" · and cat is given real.txt (${target})`,
    );
    symlinkSync("/etc/hostname", join(ws, "out.txt"));
    expect(npmScriptText(ws, ["cat", "out.txt"])).toBe(
      'and cat is given out.txt, a symbolic link to "/etc/hostname"',
    );
  });

  it("a file over the hashing limit a word names is bound by its size and change time, not refused", () => {
    writeFileSync(join(ws, "big.bin"), Buffer.alloc(16 * 1024 * 1024 + 1));
    const stats = statSync(join(ws, "big.bin"), { bigint: true });
    expect(npmScriptText(ws, ["gzip", "-k", "big.bin"])).toBe(
      `and gzip is given big.bin (not hashed: ${String(stats.size)} bytes, inode ${String(stats.ino)}, changed ${String(stats.ctimeNs)} ns)`,
    );
  });

  // Not timed (a timed unit test fails on a loaded machine): a search per word over the words
  // after it, or a look at the disk for each plain name, runs past the test's own 30 s timeout.
  it("many words stay cheap", () => {
    write("a.txt", "a\n");
    const many = Array.from({ length: 200_000 }, (_, index) => `w${String(index % 5000)}`);
    expect(npmScriptText(ws, ["echo", ...many, "a.txt"])).toBe(
      `and echo is given a.txt (${sha("a\n")})`,
    );
  });
});

describe("xargs runs commands it reads, which the harness cannot bind", () => {
  it.each([
    ["xargs", "-a", "cmds.txt", "-I@", "sh", "-c", "@"],
    ["timeout", "60", "xargs", "-I@", "node", "@"],
  ])("%j is refused", (...argv) => {
    write("cmds.txt", "touch pwned\n");
    const call = (): unknown => npmScriptText(ws, argv);
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow("xargs, which runs commands the harness cannot read from its text");
  });
});

describe("make reads a makefile it is not given by name", () => {
  it("make with no -f binds the makefile make picks, and the absence of those it would pick first", () => {
    const makefile = write("Makefile", "all:\n\techo hi\n");
    expect(npmScriptText(ws, ["make", "test"])).toBe(
      `and make is given GNUmakefile, which is not there now · and make is given makefile, which is not there now · and make is given Makefile (${makefile})`,
    );
    const gnu = write("GNUmakefile", "all:\n\techo gnu\n");
    expect(npmScriptText(ws, ["make", "test"])).toBe(`and make is given GNUmakefile (${gnu})`);
  });

  it("make -f FILE binds that file, not the default makefiles", () => {
    const mk = write("build.mk", "all:\n");
    write("Makefile", "all:\n");
    expect(npmScriptText(ws, ["make", "-f", "build.mk"])).toBe(
      `and make is given build.mk (${mk})`,
    );
    expect(npmScriptText(ws, ["make", "--file=build.mk"])).toBe(
      `and make is given build.mk (${mk})`,
    );
  });

  it.each([
    ["make", "-C", "sub"],
    ["make", "-Csub"],
    ["make", "-kC", "sub"],
    ["make", "--directory=sub"],
    ["make", "--directory", "sub"],
    ["make", "--dir", "sub", "html"],
    ["make", "-C", "./", "-C", "sub"],
  ])("%j binds the makefile make reads in that folder, not the workspace's", (...argv) => {
    write("Makefile", "all:\n\techo top\n");
    const makefile = write("sub/Makefile", "all:\n\techo sub\n");
    expect(npmScriptText(ws, argv)).toBe(
      `and make is given sub/GNUmakefile, which is not there now · and make is given sub/makefile, which is not there now · and make is given sub/Makefile (${makefile})`,
    );
  });

  it("-f names a makefile in the -C folder, wherever it stands; a makefile changed there asks again", () => {
    const mk = write("sub/build.mk", "all:\n");
    write("build.mk", "all:\n");
    const bound = npmScriptText(ws, ["make", "-f", "build.mk", "-C", "sub"]);
    // (build.mk of the workspace is bound too, as any file a command's words name is.)
    expect(bound?.startsWith(`and make is given sub/build.mk (${mk}) · `)).toBe(true);
    write("sub/build.mk", "all:\n\ttouch pwned\n");
    expect(npmScriptText(ws, ["make", "-f", "build.mk", "-C", "sub"])).not.toBe(bound);
  });

  it("a folder outside the workspace binds nothing there, as -f ../x.mk does", () => {
    expect(npmScriptText(ws, ["make", "-C", "/"])).toBeUndefined();
    expect(npmScriptText(ws, ["make", "-C", ".."])).toBeUndefined();
  });

  it("a -C folder the shell expands is refused: which makefile it reads cannot be said", () => {
    const call = (): unknown => shellTextReach(ws, "make -C $DIR");
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow('make -C is given "$DIR", a name the shell expands');
  });

  it("a search for the word make is not taken for make -C (it binds more, never refuses)", () => {
    write("src/a.c", "make\n");
    expect(() => shellTextReach(ws, "grep -rn make -C 2 src")).not.toThrow();
  });

  it("make behind a wrapper in a script binds its makefile too", () => {
    const makefile = write("Makefile", "all:\n");
    expect(shellTextReach(ws, "timeout 600 make all")).toBe(
      `and make is given GNUmakefile, which is not there now · and make is given makefile, which is not there now · and make is given Makefile (${makefile})`,
    );
  });
});

describe("node given a directory runs the entry its package.json names", () => {
  it.each([["."], ["./"]])("node %s binds package.json and its main", (dir) => {
    const manifest = write("package.json", JSON.stringify({ main: "src/main" }));
    const main = write("src/main.js", "console.log(1)\n");
    expect(npmScriptText(ws, ["node", dir])).toBe(
      `and node is given package.json (${manifest}) · and node is given src/main.js (${main})`,
    );
  });

  it("node DIR with no main binds DIR/index.js, and a DIR.js node would take first", () => {
    const index = write("app/index.js", "1\n");
    expect(npmScriptText(ws, ["node", "app"])).toBe(`and node is given app/index.js (${index})`);
    const sibling = write("app.js", "2\n");
    expect(npmScriptText(ws, ["node", "app"])).toBe(
      `and node is given app.js (${sibling}) · and node is given app/index.js (${index})`,
    );
    // With a trailing slash too: node resolves the path first, which drops it.
    expect(npmScriptText(ws, ["node", "app/"])).toBe(npmScriptText(ws, ["node", "app"]));
  });

  it("a main written later, or changed, changes the binding", () => {
    write("package.json", JSON.stringify({ main: "a.js" }));
    write("a.js", "1\n");
    const before = npmScriptText(ws, ["node", "."]);
    write("package.json", JSON.stringify({ main: "b.js" }));
    write("b.js", "1\n");
    expect(npmScriptText(ws, ["node", "."])).not.toBe(before);
  });

  it("python DIR runs DIR/__main__.py", () => {
    const main = write("tool/__main__.py", "print(1)\n");
    expect(npmScriptText(ws, ["python3", "tool"])).toBe(
      `and python3 is given tool/__main__.py (${main})`,
    );
  });
});

describe("node's test runner finds its own files and never reads stdin", () => {
  it("npm test with node --test test/ binds the script, and no error for the directory", () => {
    write("package.json", JSON.stringify({ scripts: { test: "node --test test/" } }));
    write("test/a.test.js", "1\n");
    expect(npmScriptText(ws, ["npm", "test"])).toBe('runs the script "node --test test/"');
  });

  it("bare node --test binds nothing and is not taken for a program read from stdin", () => {
    expect(npmScriptText(ws, ["node", "--test"])).toBeUndefined();
    expect(shellTextReach(ws, "node --test --test-reporter spec")).toBeUndefined();
  });

  it("node --test FILE binds the test files there are; a pattern the shell expands is no error", () => {
    const a = write("test/a.test.js", "1\n");
    expect(npmScriptText(ws, ["node", "--test", "test/a.test.js", "test/b.test.js"])).toBe(
      `and node is given test/a.test.js (${a})`,
    );
    write("package.json", JSON.stringify({ scripts: { test: "node --test test/*.test.js" } }));
    expect(npmScriptText(ws, ["npm", "test"])).toBe('runs the script "node --test test/*.test.js"');
  });

  it("node --v8-options and --completion-bash print and run nothing", () => {
    expect(npmScriptText(ws, ["node", "--v8-options"])).toBeUndefined();
    expect(npmScriptText(ws, ["node", "--completion-bash"])).toBeUndefined();
  });

  it("node - and python - read their program from stdin, as a bare node does", () => {
    for (const argv of [
      ["node", "-"],
      ["python3", "-"],
    ]) {
      expect(() => npmScriptText(ws, argv)).toThrow("is given no file or code of its own");
    }
  });
});

describe("chapter 4 runs an allowlisted npm test whose script is node --test", () => {
  it("authorizeP04 asks about it, showing the script, instead of refusing every call", () => {
    write("package.json", JSON.stringify({ scripts: { test: "node --test test/" } }));
    write("test/a.test.js", "1\n");
    const decision = authorizeRunCommand(ws, ["npm", "test"], [["npm", "test"]], (argv) =>
      npmScriptRows(ws, argv),
    );
    expect(decision.behavior).toBe("ask");
    expect(decision.behavior === "ask" ? decision.request.scriptRows : undefined).toEqual([
      'runs the script "node --test test/"',
    ]);
  });
});

describe("make binds the makefiles a makefile includes by name", () => {
  it("include and -include, from make's folder, and what those include in turn", () => {
    const makefile = write("src/Makefile", "include rules.mk\n-include local.mk\nall:\n");
    const rules = write("src/rules.mk", "include deep.mk\n");
    const deep = write("src/deep.mk", "X = 1\n");
    const bound = npmScriptText(ws, ["make", "-C", "src"]);
    expect(bound).toContain(`and make is given src/Makefile (${makefile})`);
    expect(bound).toContain(`and make is given src/rules.mk (${rules})`);
    expect(bound).toContain(`and make is given src/deep.mk (${deep})`);
    expect(bound).toContain("and make is given src/local.mk, which is not there now");
    write("src/deep.mk", "all:\n\ttouch pwned\n");
    expect(npmScriptText(ws, ["make", "-C", "src"])).not.toBe(bound);
  });

  it("an include make names from a variable no makefile sets hides which text runs: refused", () => {
    write("Makefile", "-include $(OBJS:.o=.d)\nall:\n");
    const call = (): unknown => npmScriptText(ws, ["make"]);
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow(
      `make's Makefile includes "$(OBJS:.o=.d)", which names "\${OBJS}": make builds the name from a value the harness cannot know`,
    );
  });

  it("a makefile that includes itself is read once", () => {
    write("Makefile", "include Makefile\nall:\n");
    expect(npmScriptText(ws, ["make"])).toContain("and make is given Makefile");
  });
});

describe("make's includes through -I, continued lines and patterns", () => {
  it("-I DIR: the included makefile there is bound, with the one make would take first", () => {
    write("Makefile", "include rules.inc\nall:\n");
    const rules = write("inc/rules.inc", "all:\n\techo hi\n");
    const bound = npmScriptText(ws, ["make", "-I", "inc"]);
    expect(bound).toContain("and make is given rules.inc, which is not there now");
    expect(bound).toContain(`and make is given inc/rules.inc (${rules})`);
    write("inc/rules.inc", "all:\n\ttouch pwned\n");
    expect(npmScriptText(ws, ["make", "-I", "inc"])).not.toBe(bound);
  });

  it("an include continued over a line break names the makefile on the next line", () => {
    write("Makefile", "include \\\n  rules2.mk\nall:\n");
    const rules = write("rules2.mk", "X = 1\n");
    expect(npmScriptText(ws, ["make"])).toContain(`and make is given rules2.mk (${rules})`);
  });

  it("an include of a pattern matches files a command may add: refused", () => {
    write("Makefile", "include rules/*.mk\nall:\n");
    const call = (): unknown => npmScriptText(ws, ["make"]);
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow('includes "rules/*.mk", a pattern make matches');
  });
});

describe("cargo runs the crate's build script first", () => {
  it("binds Cargo.toml and build.rs, so a build script written later asks again", () => {
    const manifest = write("Cargo.toml", '[package]\nname = "x"\n');
    const bound = npmScriptText(ws, ["cargo", "test"]);
    expect(bound).toBe(
      `and cargo is given Cargo.toml (${manifest}) · and cargo is given build.rs, which is not there now`,
    );
    write("build.rs", "fn main() {}\n");
    expect(npmScriptText(ws, ["cargo", "test"])).not.toBe(bound);
  });
});
