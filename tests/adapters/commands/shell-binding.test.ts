/**
 * A daily run grant's binding of a shell command (shellCommandBinding): plain words and any other
 * text are read by the one script reader, so a command binds the same files, and is refused for
 * the same reasons, however it is written.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { shellCommandBinding, shellTextReach } from "../../../src/adapters/commands/index.js";
import {
  LoaderVariableError,
  UnbindableCommandError,
} from "../../../src/core/grants/unbindable-command.js";
import { scratchWorkspace } from "../../support/scratch-workspace.js";

let workspace = "";
const write = scratchWorkspace("shell-binding-", (root) => (workspace = root));

describe("plain words are read as a script's text is", () => {
  it("NODE_OPTIONS=--require=FILE before node binds the module it loads, as in a script", () => {
    const hook = write("src/hook.js", "require('x')\n");
    const test = write("t.js", "console.log(1)\n");
    const command = "NODE_OPTIONS=--require=./src/hook.js node t.js";
    expect(shellCommandBinding(workspace, command)).toBe(
      `and NODE_OPTIONS is given src/hook.js (${hook}) · and node is given t.js (${test})`,
    );
    // As the same text in a package.json script is read.
    expect(shellCommandBinding(workspace, command)).toBe(shellTextReach(workspace, command));
  });

  it("xargs, which runs commands read from a file or stdin, gets no grant", () => {
    write("cmds.txt", "touch pwned\n");
    const call = (): unknown => shellCommandBinding(workspace, "xargs -a cmds.txt -I@ sh -c @");
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow("the script uses xargs, which runs commands the harness cannot read");
  });

  it.each([
    ["export PATH=bin:/usr/bin:/bin; ls", "PATH"],
    ["declare -x PYTHONPATH=. && python3 t.py", "PYTHONPATH"],
    ["export LD_PRELOAD+=./x.so; ls", "LD_PRELOAD"],
    ["PATH=bin:/usr/bin; export PATH; lint", "PATH"],
  ])("%s sets %s for the rest of the script: no grant", (command, variable) => {
    const call = (): unknown => shellCommandBinding(workspace, command);
    expect(call).toThrow(LoaderVariableError);
    expect(call).toThrow(`the command sets ${variable}, which makes a program find its code`);
  });

  it("make MAKEFLAGS=… on its command line holds only options that change nothing of what runs", () => {
    write("Makefile", "all:\n\t@echo ok\n");
    for (const command of [
      "make MAKEFLAGS=--eval=all:;sh\\ x.sh",
      "make 'MAKEFLAGS=-f other.mk'",
    ]) {
      expect(() => shellCommandBinding(workspace, command)).toThrow(
        "on its command line, whose options may change what make reads or runs",
      );
    }
    expect(() => shellCommandBinding(workspace, "make MAKEFLAGS=-j4")).not.toThrow();
  });

  it("hash -p and enable -f, which change what a name runs, get no grant", () => {
    for (const command of ["hash -p ./evil ls; ls", "enable -f ./x.so cat; cat y"]) {
      expect(() => shellCommandBinding(workspace, command)).toThrow(LoaderVariableError);
    }
    expect(() => shellCommandBinding(workspace, "export CI=1; node t.js")).not.toThrow();
  });

  it("cd in plain words is refused as it is in a script", () => {
    expect(() => shellCommandBinding(workspace, "cd sub")).toThrow(
      "the command changes directory (cd)",
    );
  });

  it("npm run start with no start script binds server.js, which npm runs in its place", () => {
    write("package.json", JSON.stringify({ scripts: { test: "ava" } }));
    expect(shellCommandBinding(workspace, "npm run start")).toBe(
      "and npm runs node server.js in its place, when server.js is there · and node is given server.js, which is not there now",
    );
    const server = write("server.js", "console.log('v1')\n");
    expect(shellCommandBinding(workspace, "npm run start")).toBe(
      `and npm runs node server.js in its place, when server.js is there · and node is given server.js (${server})`,
    );
    const before = shellCommandBinding(workspace, "npm run start");
    write("server.js", "console.log('v2')\n");
    expect(shellCommandBinding(workspace, "npm run start")).not.toBe(before);
  });

  it("npm run start -w PKG with no start script binds that package's server.js", () => {
    write("package.json", JSON.stringify({ name: "root", workspaces: ["packages/*"] }));
    write("packages/core/package.json", JSON.stringify({ name: "@mono/core" }));
    const before = shellCommandBinding(workspace, "npm run start -w @mono/core");
    expect(before).toContain("and node is given packages/core/server.js, which is not there now");
    write("packages/core/server.js", "console.log('v2')\n");
    expect(shellCommandBinding(workspace, "npm run start -w @mono/core")).not.toBe(before);
  });

  it("npm run restart with no restart script binds the stop and start scripts npm runs instead", () => {
    write("package.json", JSON.stringify({ scripts: { start: "node a.js", stop: "node b.js" } }));
    const before = shellCommandBinding(workspace, "npm run restart");
    expect(before).toContain('and in its place npm runs the script stop "node b.js"');
    expect(before).toContain('and then the script start "node a.js"');
    write(
      "package.json",
      JSON.stringify({ scripts: { start: "node evil.js", stop: "node b.js" } }),
    );
    expect(shellCommandBinding(workspace, "npm run restart")).not.toBe(before);
  });

  it("npm test and npm run X are bound as the allowed argv is, from the script's own row", () => {
    write("package.json", JSON.stringify({ scripts: { test: "ava", lint: "eslint ." } }));
    expect(shellCommandBinding(workspace, "npm test")).toBe('runs the script "ava"');
    expect(shellCommandBinding(workspace, " npm  run lint ")).toBe('runs the script "eslint ."');
    expect(shellCommandBinding(workspace, "npm run missing")).toBeUndefined();
    // A prefix makes it a command of a script like any other: npm's script is still bound.
    expect(shellCommandBinding(workspace, "CI=1 npm test")).toBe(
      'and through npm the script test "ava"',
    );
  });

  it("a VAR=value assignment naming a workspace file binds it: BASH_ENV=src/env.sh bash check.sh", () => {
    const env = write("src/env.sh", "export X=1\n");
    const check = write("check.sh", "echo ok\n");
    expect(shellCommandBinding(workspace, "BASH_ENV=src/env.sh bash check.sh")).toBe(
      `and BASH_ENV is given src/env.sh (${env}) · and bash is given check.sh (${check})`,
    );
  });

  it("a plain command that names no workspace file binds nothing", () => {
    expect(shellCommandBinding(workspace, "ls -la")).toBeUndefined();
    expect(shellCommandBinding(workspace, "git status")).toBeUndefined();
  });
});

describe("what a command reads through the system or from a redirect is bound or refused", () => {
  it.each([
    "sh /dev/stdin < tools/check.sh",
    "bash /dev/fd/3 3< tools/check.sh",
    "sh /proc/self/cwd/tools/check.sh",
    "node /proc/self/cwd/x.js",
    "make -f /dev/stdin < Makefile",
    "make -C /proc/self/cwd/sub",
    "awk -f /proc/self/cwd/tools/check.sh",
    "awk -f /dev/stdin < tools/check.sh",
    "awk -f /dev/fd/3 3<>tools/check.sh",
  ])("%s names a file through the system's view: no grant", (command) => {
    write("tools/check.sh", "echo tests ok\n");
    const call = (): unknown => shellCommandBinding(workspace, command);
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow("which the system maps to another file");
  });

  it.each([
    ["rbash < tools/check.sh", "a command's stdin is given tools/check.sh"],
    ["tclsh < tools/check.sh", "a command's stdin is given tools/check.sh"],
    ["node x.js < tools/check.sh", "a command's stdin is given tools/check.sh"],
    ["tclsh <>tools/check.sh", "a command's stdin is given tools/check.sh"],
    ["tclsh 0<>tools/check.sh", "a command's stdin is given tools/check.sh"],
  ])("%s binds the file < feeds it, by content", (command, said) => {
    write("x.js", "1\n");
    const check = write("tools/check.sh", "echo tests ok\n");
    const before = shellCommandBinding(workspace, command);
    expect(before).toContain(`and ${said} (${check})`);
    write("tools/check.sh", "echo tests ok; touch pwned\n");
    expect(shellCommandBinding(workspace, command)).not.toBe(before);
  });

  it("/dev/null, /dev/urandom or /proc/cpuinfo on stdin hold no workspace file: nothing to bind", () => {
    write("x.js", "1\n");
    expect(() => shellCommandBinding(workspace, "node x.js < /dev/null")).not.toThrow();
    expect(shellCommandBinding(workspace, "head -c 16 < /dev/urandom")).toBeUndefined();
    expect(shellCommandBinding(workspace, "wc -l < /proc/cpuinfo")).toBeUndefined();
  });

  it("a file < would feed that is not there yet is bound by its absence", () => {
    const before = shellCommandBinding(workspace, "tclsh < later.tcl");
    expect(before).toBe("and a command's stdin is given later.tcl, which is not there now");
    write("later.tcl", "puts hi\n");
    expect(shellCommandBinding(workspace, "tclsh < later.tcl")).not.toBe(before);
  });

  it.each(["env -C pkg npm test", "env --chdir=pkg npm test", "env -i -C pkg sh run.sh"])(
    "%s runs in another folder, where its names lead elsewhere: no grant",
    (command) => {
      const call = (): unknown => shellCommandBinding(workspace, command);
      expect(call).toThrow(UnbindableCommandError);
      expect(call).toThrow("the command changes directory (env -C)");
    },
  );

  it("env -u NAME: the name is env's; the command after it is bound", () => {
    const test = write("t.js", "1\n");
    expect(shellCommandBinding(workspace, "env -u FOO -i node t.js")).toBe(
      `and node is given t.js (${test})`,
    );
  });
});

describe("words the script reader used to take for expansions", () => {
  it("a lone [ is the test command, not a glob", () => {
    expect(() => shellTextReach(workspace, '[ -n "$CI" ] || npm test')).not.toThrow("expands");
  });

  it("a glob after the file node runs is the script's own argument: the file is bound", () => {
    const post = write("scripts/post.js", "1\n");
    expect(shellTextReach(workspace, "node scripts/post.js --out=dist/*.js")).toBe(
      `and node is given scripts/post.js (${post})`,
    );
  });

  it("one before it may change which file runs: refused", () => {
    write("scripts/post.js", "1\n");
    expect(() => shellTextReach(workspace, "node $OPTS scripts/post.js")).toThrow(
      UnbindableCommandError,
    );
  });
});

describe("env's own options", () => {
  it.each(["env --ch pkg npm test", "env --c pkg npm test", "env -iCpkg npm test"])(
    "%s changes directory however it is spelled: no grant",
    (command) => {
      expect(() => shellCommandBinding(workspace, command)).toThrow(
        "the command changes directory (env -C)",
      );
    },
  );

  it.each([
    ["env -S'sh evil.sh'", "sh"],
    ["env --split-string='sh evil.sh'", "sh"],
    ["env -S 'sh evil.sh'", "sh"],
    ["env -iu FOO sh evil.sh", "sh"],
  ])("%s binds the file the command it runs is given", (command, shell) => {
    const evil = write("evil.sh", "echo hi\n");
    expect(shellTextReach(workspace, command)).toBe(`and ${shell} is given evil.sh (${evil})`);
  });
});

describe("variables that choose where a program finds its code", () => {
  it.each([
    "PYTHONPATH=. python3 -c pass",
    "PYTHONPATH=: python3 -c pass",
    "PYTHONUSERBASE=. python3 -c pass",
    "PERL5LIB=. PERL5OPT=-Mevil perl -e 1",
    "RUBYLIB=. RUBYOPT=-revil ruby -e 1",
    "PATH=bin:/usr/bin:/bin tool",
    "LD_PRELOAD=./x.so ls",
    "MAKEFLAGS=-Iinc make",
    "env PYTHONPATH=. python3 -c pass",
  ])("%s gets no grant", (command) => {
    const call = (): unknown => shellCommandBinding(workspace, command);
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow("which makes a program find its code (or itself) in folders");
  });
});

describe("the class of round 13", () => {
  it.each(["bash {evil,}.sh", "awk -f prog.{awk,x} /dev/null", "cat {1..3}.txt"])(
    "%s: brace expansion is a word the shell expands",
    (command) => {
      expect(() => shellCommandBinding(workspace, command)).toThrow("is one the shell expands");
    },
  );

  it("a brace that does not expand is an ordinary word", () => {
    expect(() => shellCommandBinding(workspace, "echo {} x")).not.toThrow();
  });

  it.each(["env --block-signal sh evil.sh", "env --default-signal bash evil.sh"])(
    "%s: the option takes no value without =, so the script is bound",
    (command) => {
      const evil = write("evil.sh", "echo hi\n");
      expect(shellCommandBinding(workspace, command)).toContain(`evil.sh (${evil})`);
    },
  );

  it.each(["unshare --wd=sub sh x.sh", "nsenter --wd=sub sh x.sh", "chroot . sh x.sh"])(
    "%s runs in another folder or root: no grant",
    (command) => {
      expect(() => shellCommandBinding(workspace, command)).toThrow(
        "the command changes directory",
      );
    },
  );

  it("a file URL names the file it points at", () => {
    const hook = write("hook.mjs", "1\n");
    expect(shellTextReach(workspace, `node --import file://${workspace}/hook.mjs -e 1`)).toContain(
      `hook.mjs (${hook})`,
    );
  });

  it.each(["make --in inc", "make --eval='include evil.mk'", "make -E 'include evil.mk'"])(
    "%s",
    (command) => {
      write("Makefile", "include rules.mk\nall:\n");
      const reach = (): unknown => shellTextReach(workspace, command);
      if (command.includes("--in ")) expect(reach()).toContain("inc/rules.mk");
      else expect(reach).toThrow("--eval adds makefile text");
    },
  );
});

describe("make's recipes are read as an npm script's text is", () => {
  const REVIEWED =
    "LOCAL = src/local.inc\n-include $(LOCAL)\nall:\n\t@echo base-recipe; sh src/build.sh\n";

  it("the reviewer's makefile: a, then a rewritten src/build.sh or a new src/local.inc asks again", () => {
    const makefile = write("Makefile", REVIEWED);
    const build = write("src/build.sh", "echo build\n");
    const before = shellCommandBinding(workspace, "make");
    expect(before).toBe(
      "and make is given GNUmakefile, which is not there now · and make is given makefile, which is not there now · " +
        `and make is given Makefile (${makefile}) · and make is given src/local.inc, which is not there now · ` +
        `and sh is given src/build.sh (${build})`,
    );
    const rewritten = write("src/build.sh", "echo build; touch pwned\n");
    const afterBuild = shellCommandBinding(workspace, "make");
    expect(afterBuild).toBe(before?.replace(build, rewritten));
    const local = write("src/local.inc", "all:\n\tsh src/evil.sh\n");
    const evil = write("src/evil.sh", "touch pwned\n");
    expect(shellCommandBinding(workspace, "make")).toBe(
      "and make is given GNUmakefile, which is not there now · and make is given makefile, which is not there now · " +
        `and make is given Makefile (${makefile}) · and make is given src/local.inc (${local}) · ` +
        `and sh is given src/evil.sh (${evil}) · and sh is given src/build.sh (${rewritten})`,
    );
  });

  it("a, then a rewritten hello.sh or a new hello.c that make's built-in rules build hello from asks again", () => {
    const makefile = write("Makefile", "test: hello\n\t./hello\n");
    write("hello.sh", "echo one\n");
    const before = shellCommandBinding(workspace, "make");
    const head =
      "and make is given GNUmakefile, which is not there now · and make is given makefile, which is not there now · " +
      `and make is given Makefile (${makefile}) · and the shell is given hello, which is not there now · ` +
      "and make's built-in rules may build hello from ";
    const digest = (files: readonly (readonly [string, string])[]): string =>
      createHash("sha256")
        .update(
          files
            .map(([name, text]) => `${name}\0${createHash("sha256").update(text).digest("hex")}\n`)
            .join(""),
        )
        .digest("hex");
    expect(before).toBe(`${head}hello.sh (sha256 ${digest([["hello.sh", "echo one\n"]])})`);
    write("hello.sh", "touch pwned\n");
    expect(shellCommandBinding(workspace, "make")).toBe(
      `${head}hello.sh (sha256 ${digest([["hello.sh", "touch pwned\n"]])})`,
    );
    write("hello.c", "int main(void) { return 0; }\n");
    expect(shellCommandBinding(workspace, "make")).toBe(
      `${head}hello.c, hello.sh (sha256 ${digest([
        ["hello.c", "int main(void) { return 0; }\n"],
        ["hello.sh", "touch pwned\n"],
      ])})`,
    );
    expect(shellCommandBinding(workspace, "make -r")).toBe(
      head.slice(0, head.indexOf(" · and make's built-in")),
    );
  });

  it("the same steps through npm test's script ask again as they always did", () => {
    write("package.json", JSON.stringify({ scripts: { test: "sh src/build.sh" } }));
    const build = write("src/build.sh", "echo build\n");
    const before = shellCommandBinding(workspace, "npm test");
    expect(before).toBe(
      `runs the script "sh src/build.sh" · and sh is given src/build.sh (${build})`,
    );
    const rewritten = write("src/build.sh", "echo build; touch pwned\n");
    expect(shellCommandBinding(workspace, "npm test")).toBe(before?.replace(build, rewritten));
  });

  it("$< and $@ of an explicit rule are its own words: the script it runs is bound", () => {
    write("Makefile", "build/out.txt: src/gen.sh\n\tsh $< > $@\n");
    const gen = write("src/gen.sh", "echo 1\n");
    const before = shellCommandBinding(workspace, "make -f Makefile");
    expect(before).toBe(
      `and make is given Makefile (${write("Makefile", "build/out.txt: src/gen.sh\n\tsh $< > $@\n")}) · and sh is given src/gen.sh (${gen})`,
    );
    write("src/gen.sh", "echo 2\n");
    expect(shellCommandBinding(workspace, "make -f Makefile")).not.toBe(before);
  });

  it("$< of a pattern rule is whichever file matches: where it is the script run, no grant", () => {
    write("Makefile", "%.txt: %.sh\n\tsh $< > $@\n");
    const call = (): unknown => shellCommandBinding(workspace, "make -f Makefile out.txt");
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow(
      'make runs the recipe "sh ${first_prerequisite} > ${target}", which cannot be bound: sh is given "${first_prerequisite}", a name the shell expands, so the harness cannot say which file runs; name the file plainly',
    );
  });

  it("a variable the makefile sets plainly, or the command line sets, is expanded", () => {
    const makefile = write("Makefile", "CHECK ?= tools/check.sh\ntest:\n\tbash $(CHECK)\n");
    const check = write("tools/check.sh", "echo ok\n");
    const other = write("tools/other.sh", "echo other\n");
    expect(shellCommandBinding(workspace, "make -f Makefile test")).toBe(
      `and make is given Makefile (${makefile}) · and bash is given tools/check.sh (${check})`,
    );
    expect(shellCommandBinding(workspace, "make -f Makefile CHECK=tools/other.sh")).toBe(
      `and make is given Makefile (${makefile}) · and bash is given tools/other.sh (${other}) · and make is given tools/other.sh (${other})`,
    );
    // `?=` yields to the environment: the command's own, or a name the person passes.
    expect(shellCommandBinding(workspace, "CHECK=tools/other.sh make -f Makefile")).toContain(
      `and bash is given tools/other.sh (${other})`,
    );
    const passed = (): unknown =>
      shellCommandBinding(workspace, "make -f Makefile", (name) => name === "CHECK");
    expect(passed).toThrow('bash is given "${CHECK}", a name the shell expands');
  });

  it("make's own $(CC) is cc where no environment can set it; $(RM) passed by the person is not", () => {
    const makefile = write("Makefile", "prog: main.c\n\t$(CC) -o $@ $^\nclean:\n\t$(RM) prog\n");
    const main = write("main.c", "int main(void) { return 0; }\n");
    expect(shellCommandBinding(workspace, "make -f Makefile")).toBe(
      `and make is given Makefile (${makefile}) · and cc is given main.c (${main})`,
    );
    const call = (): unknown =>
      shellCommandBinding(workspace, "make -f Makefile", (name) => name === "RM");
    expect(call).toThrow(
      'make runs the recipe "${RM} prog", which cannot be bound: the script runs a program whose name the shell expands ("${RM}")',
    );
  });
});

describe("what make includes by a variable's name", () => {
  it("a dependency list built from a plain list binds each file it names, there or not", () => {
    const text =
      "SRCS = main.c util.c\nOBJS = $(SRCS:.c=.o)\nDEPS = $(OBJS:.o=.d)\n-include $(DEPS)\nall:\n";
    const makefile = write("Makefile", text);
    const before = shellCommandBinding(workspace, "make -f Makefile");
    expect(before).toBe(
      `and make is given Makefile (${makefile}) · and make is given main.d, which is not there now · and make is given util.d, which is not there now`,
    );
    const main = write("main.d", "all:\n\tsh evil.sh\n");
    expect(shellCommandBinding(workspace, "make -f Makefile")).toBe(
      `and make is given Makefile (${makefile}) · and make is given main.d (${main}) · and make is given util.d, which is not there now · and sh is given evil.sh, which is not there now`,
    );
  });

  it("$(wildcard …) names the files there now: a source added later adds its .d", () => {
    const text = "SRCS := $(wildcard src/*.c)\n-include $(SRCS:.c=.d)\nall:\n";
    const makefile = write("Makefile", text);
    write("src/a.c", "int a;\n");
    const before = shellCommandBinding(workspace, "make -f Makefile");
    expect(before).toBe(
      `and make is given Makefile (${makefile}) · and make is given src/a.d, which is not there now`,
    );
    write("src/b.c", "int b;\n");
    expect(shellCommandBinding(workspace, "make -f Makefile")).toBe(
      `${before ?? ""} · and make is given src/b.d, which is not there now`,
    );
  });

  it("an include make names from a value the harness cannot know gets no grant", () => {
    write("Makefile", "DEPS = $(shell find . -name '*.d')\n-include $(DEPS)\nall:\n");
    const call = (): unknown => shellCommandBinding(workspace, "make -f Makefile");
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow(
      `make's Makefile includes "$(DEPS)", which names "\${shell}": make builds the name from a value the harness cannot know`,
    );
  });
});

describe("what else make runs while it reads", () => {
  it("$(shell …) and != run their text: the files it runs are bound", () => {
    const makefile = write(
      "Makefile",
      "VERSION := $(shell sh tools/version.sh)\nNOW != sh tools/now.sh\nall:\n",
    );
    const version = write("tools/version.sh", "echo 1\n");
    const now = write("tools/now.sh", "date\n");
    expect(shellCommandBinding(workspace, "make -f Makefile")).toBe(
      `and make is given Makefile (${makefile}) · and sh is given tools/version.sh (${version}) · and sh is given tools/now.sh (${now})`,
    );
  });

  it.each([
    ["$(eval all: ; sh evil.sh)\n", "uses $(eval …), which adds makefile text or code"],
    [
      "SHELL = python3\nall:\n\tprint(1)\n",
      'run their recipes with "python3 -c", not sh, bash or dash',
    ],
    ["load ./ext.so\n", 'loads "./ext.so" into make itself'],
    [".RECIPEPREFIX = >\n", "sets .RECIPEPREFIX"],
  ])("%j gets no grant", (text, said) => {
    write("Makefile", text);
    const call = (): unknown => shellCommandBinding(workspace, "make -f Makefile");
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow(said);
  });

  it("$(MAKE) -C sub reads sub's makefile and what its recipes run", () => {
    const top = write("Makefile", "all:\n\t$(MAKE) -C sub\n");
    const sub = write("sub/Makefile", "all:\n\tsh run.sh\n");
    const run = write("sub/run.sh", "echo sub\n");
    expect(shellCommandBinding(workspace, "make -f Makefile")).toBe(
      `and make is given Makefile (${top}) · and make is given sub/GNUmakefile, which is not there now · ` +
        `and make is given sub/makefile, which is not there now · and make is given sub/Makefile (${sub}) · ` +
        `and sh is given sub/run.sh (${run})`,
    );
  });

  it("a common C makefile still gets a grant", () => {
    write(
      "Makefile",
      [
        "CC ?= gcc",
        "CFLAGS += -O2 -Wall",
        "SRCS := $(wildcard src/*.c)",
        "OBJS := $(SRCS:.c=.o)",
        "DEPS := $(OBJS:.o=.d)",
        ".PHONY: all test clean",
        "all: prog",
        "prog: $(OBJS)",
        "\t$(CC) $(LDFLAGS) -o $@ $^",
        "%.o: %.c",
        "\t$(CC) $(CFLAGS) -MMD -c $< -o $@",
        "test: prog",
        "\t./prog --selftest",
        "clean:",
        "\t$(RM) prog $(OBJS) $(DEPS)",
        "-include $(DEPS)",
        "",
      ].join("\n"),
    );
    write("src/main.c", "int main(void) { return 0; }\n");
    const binding = shellCommandBinding(workspace, "make test");
    expect(binding).toContain("and make is given src/main.d, which is not there now");
    expect(binding).toContain("and the shell is given prog, which is not there now");
  });
});
