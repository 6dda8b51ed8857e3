/**
 * What make runs that its makefiles do not spell out as an explicit rule's recipe: its built-in
 * implicit rules (`hello` from `hello.sh`), `.DEFAULT` and old-style suffix rules (whose `$@`
 * and `$<` are any file's), what it passes to every recipe (an exported PATH, BASH_ENV), and a
 * `.ONESHELL` recipe, which the shell reads as one script.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { npmScriptText } from "../../../src/adapters/commands/index.js";
import {
  LoaderVariableError,
  UnbindableCommandError,
} from "../../../src/core/grants/unbindable-command.js";
import { scratchWorkspace } from "../../support/scratch-workspace.js";

let ws = "";
const write = scratchWorkspace("make-implicit-", (root) => (ws = root));
const hex = (text: string): string => createHash("sha256").update(text).digest("hex");
/** The digest of a built-in row: each present source's name and content digest, in order. */
function sources(files: readonly (readonly [string, string])[]): string {
  return hex(files.map(([name, content]) => `${name}\0${hex(content)}\n`).join(""));
}
function rows(args: readonly string[] = ["make"]): string[] {
  return (npmScriptText(ws, [...args]) ?? "").split(" · ");
}
const builtinRows = (args?: readonly string[]): string[] =>
  rows(args).filter((row) => row.startsWith("and make's built-in rules"));

describe("make's built-in implicit rules", () => {
  it("bind hello.sh, which make's %: %.sh rule copies to the hello a recipe runs", () => {
    write("Makefile", "test: hello\n\t./hello\n");
    expect(builtinRows()).toEqual([]);
    // Creating a source make would use changes the binding: a row appears.
    write("hello.sh", "echo one\n");
    expect(builtinRows()).toEqual([
      `and make's built-in rules may build hello from hello.sh (sha256 ${sources([["hello.sh", "echo one\n"]])})`,
    ]);
    write("hello.sh", "echo two\n");
    expect(builtinRows()).toEqual([
      `and make's built-in rules may build hello from hello.sh (sha256 ${sources([["hello.sh", "echo two\n"]])})`,
    ]);
  });

  it("bind every source there now in one row, chained (main.o from main.c, main.c from main.y)", () => {
    write("Makefile", "app: main.o\n\tcc -o app main.o\n");
    write("main.c", "int main;\n");
    write("main.y", "%%\n");
    expect(builtinRows()).toEqual([
      `and make's built-in rules may build main.o from main.c, main.y (sha256 ${sources([
        ["main.c", "int main;\n"],
        ["main.y", "%%\n"],
      ])})`,
    ]);
  });

  it("bind a goal's sources even with no makefile, in make's -C folder, RCS included", () => {
    write("sub/RCS/tool,v", "head 1.1;\n");
    expect(builtinRows(["make", "-C", "sub", "tool"])).toEqual([
      `and make's built-in rules may build sub/tool from sub/RCS/tool,v (sha256 ${sources([
        ["sub/RCS/tool,v", "head 1.1;\n"],
      ])})`,
    ]);
  });

  it("read the program a makefile gives them (CC = sh ./cc.sh) as a recipe's, once one may run", () => {
    write("Makefile", "CC = sh ./cc.sh\napp: main.o\n\tcat main.o > app\n");
    write("cc.sh", "touch pwned\n");
    expect(rows()).not.toContain(`and sh is given cc.sh (sha256 ${hex("touch pwned\n")})`);
    write("main.c", "int main;\n");
    expect(rows()).toContain(`and sh is given cc.sh (sha256 ${hex("touch pwned\n")})`);
    expect(rows(["make", "CC=sh ./cc.sh"])).toContain(
      `and sh is given cc.sh (sha256 ${hex("touch pwned\n")})`,
    );
    write("Makefile", "CC = $(shell echo cc)\napp: main.o\n\tcat main.o > app\n");
    expect(() => rows()).toThrow('make runs a built-in rule\'s program "${shell}", which cannot');
  });

  it("bind a dot-named target's sources too (.env from .env.sh)", () => {
    write("Makefile", "run: .env\n\tcat .env\n");
    write(".env.sh", "echo A=1\n");
    expect(builtinRows()).toEqual([
      `and make's built-in rules may build .env from .env.sh (sha256 ${sources([[".env.sh", "echo A=1\n"]])})`,
    ]);
  });

  it("leave out a target with its own recipe, and a .PHONY one", () => {
    write("Makefile", ".PHONY: test\ntest: hello\n\t./hello\nhello:\n\tcp x hello\n");
    write("hello.sh", "echo hi\n");
    write("test.sh", "echo hi\n");
    expect(builtinRows()).toEqual([]);
  });

  it.each([
    [["make", "-r"], "test: hello\n\t./hello\n"],
    [["make", "-kr"], "test: hello\n\t./hello\n"],
    [["make", "--no-builtin-rules"], "test: hello\n\t./hello\n"],
    [["make"], "MAKEFLAGS += -r\ntest: hello\n\t./hello\n"],
    [["make"], "MAKEFLAGS += --no-builtin-rules\ntest: hello\n\t./hello\n"],
  ])("are off under %j with %j", (args, makefile) => {
    write("Makefile", makefile);
    write("hello.sh", "echo hi\n");
    expect(builtinRows(args)).toEqual([]);
  });

  it("stay on when a makefile's -r is under a condition or dropped later", () => {
    write("hello.sh", "echo hi\n");
    const row = `and make's built-in rules may build hello from hello.sh (sha256 ${sources([["hello.sh", "echo hi\n"]])})`;
    write("Makefile", "ifdef X\nMAKEFLAGS += -r\nendif\ntest: hello\n\t./hello\n");
    expect(builtinRows()).toEqual([row]);
    write("Makefile", "MAKEFLAGS += -r\nMAKEFLAGS = -s\ntest: hello\n\t./hello\n");
    expect(builtinRows()).toEqual([row]);
  });

  it("refuse a name the harness cannot know, and a makefile's MAKEFLAGS that changes what runs", () => {
    write("Makefile", "test: $(shell ls)\n\techo hi\n");
    expect(() => rows()).toThrow(
      `make may build "\${shell}", a name the harness cannot know, with make's built-in rules`,
    );
    write("Makefile", "MAKEFLAGS += --eval=x\nall:\n\techo hi\n");
    expect(() => rows()).toThrow(
      `make's Makefile sets MAKEFLAGS to "--eval=x", whose "--eval=x" may change what make reads or runs`,
    );
  });

  it("refuse past the cap on names", () => {
    const many = Array.from({ length: 1001 }, (_, at) => `f${String(at)}`).join(" ");
    write("Makefile", `all: ${many}\n\techo hi\n`);
    expect(() => rows()).toThrow(
      "make may build over 1000 files with make's built-in rules, more than the harness reads",
    );
  });
});

describe(".DEFAULT and old-style suffix rules are patterns: $@ and $< are any file's", () => {
  it.each([
    ["all: foo\n.DEFAULT:\n\tsh $@.run\n", "sh ${target}.run"],
    [".SUFFIXES: .in .run\n.in.run:\n\tsh ./$<\nall: x.run\n", "sh ./${first_prerequisite}"],
    [".SUFFIXES: .sh\n.sh:\n\tsh ./$<\nall: x\n", "sh ./${first_prerequisite}"],
  ])("%j is refused where the name decides what runs", (makefile, recipe) => {
    write("Makefile", makefile);
    write(".DEFAULT.run", "echo hi\n");
    expect(() => rows()).toThrow(UnbindableCommandError);
    expect(() => rows()).toThrow(`make runs the recipe ${JSON.stringify(recipe)}, which cannot`);
  });
});

describe("a makefile that sets what every recipe runs with", () => {
  it.each([
    ["SHELL = /bin/bash\nexport BASH_ENV = .envrc.sh\nall:\n\techo hi\n", "BASH_ENV"],
    ["export PATH = bin:/usr/bin:/bin\nall:\n\tls\n", "PATH"],
    ["PATH = bin:/usr/bin:/bin\nall:\n\tls\n", "PATH"],
    ["export ENV=.envrc.sh\nall:\n\techo hi\n", "ENV"],
    ["export\nLD_PRELOAD = ./x.so\nall:\n\techo hi\n", "LD_PRELOAD"],
    ["all: PYTHONPATH = .\nall:\n\tpython3 -c pass\n", "PYTHONPATH"],
    ["define PATH\nbin\nendef\nall:\n\tls\n", "PATH"],
  ])("%j is refused as setting %s", (makefile, name) => {
    write("Makefile", makefile);
    expect(() => rows()).toThrow(LoaderVariableError);
    expect(() => rows()).toThrow(
      `make's Makefile sets ${name}, which make passes to every recipe and which chooses which program or file it runs, so any file may run`,
    );
  });

  it("is refused when make's command line sets one, or a name make builds", () => {
    write("Makefile", "all:\n\tls\n");
    expect(() => rows(["make", "PATH=bin"])).toThrow(LoaderVariableError);
    expect(() => rows(["make", "PATH=bin"])).toThrow("make's command line sets PATH");
    write("Makefile", "$(shell echo PATH) = bin\nall:\n\tls\n");
    expect(() => rows()).toThrow(LoaderVariableError);
  });
});

describe(".ONESHELL", () => {
  it("reads a recipe's lines as one script, so one line's setting is read with the next", () => {
    write("Makefile", ".ONESHELL:\nall:\n\t@PATH=bin\n\tls\n");
    expect(() => rows()).toThrow(
      'make runs the recipe "PATH=bin\\nls", which cannot be bound: the command sets PATH',
    );
  });
});
