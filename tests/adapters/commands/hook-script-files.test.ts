/**
 * hookScriptRun: which git hook runs or names a file, read as an install-time script is read,
 * from the repository's top; husky's shims read through to the person's `.husky/<hook>`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { hookScriptRun } from "../../../src/adapters/commands/index.js";

/** husky v9's generated files, as `npx husky` writes them. */
const HUSKY_SHIM = '#!/usr/bin/env sh\n. "${0%/*}/h"';
const HUSKY_H = [
  "#!/usr/bin/env sh",
  '[ "$HUSKY" = "2" ] && set -x',
  'n=$(basename "$0")',
  's=$(dirname "$(dirname "$0")")/$n',
  '[ ! -f "$s" ] && exit 0',
  'sh -e "$s" "$@"',
  "",
].join("\n");

const made: string[] = [];
/** A repository made by hand (as `git init` lays it out), with `files` in it. */
function repository(config: string, files: Readonly<Record<string, string>>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "hook-scripts-")));
  made.push(dir);
  const all = { ".git/config": `[core]\n\tbare = false\n${config}`, ".git/HEAD": "", ...files };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content, { mode: 0o755 });
  }
  return dir;
}
// The person's own git config (a global core.hooksPath) must not decide a case.
beforeEach(() => {
  vi.stubEnv("GIT_CONFIG_GLOBAL", "/nonexistent/global.gitconfig");
  vi.stubEnv("GIT_CONFIG_SYSTEM", "/nonexistent/system.gitconfig");
  vi.stubEnv("XDG_CONFIG_HOME", "/nonexistent/xdg");
});
afterEach(() => {
  vi.unstubAllEnvs();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("hookScriptRun", () => {
  it("husky v9: the shim in core.hooksPath runs .husky/pre-commit, whose files count", () => {
    const ws = repository("\thooksPath = .husky/_\n", {
      ".husky/_/h": HUSKY_H,
      ".husky/_/pre-commit": HUSKY_SHIM,
      ".husky/_/commit-msg": HUSKY_SHIM,
      ".husky/_/husky.sh": "echo deprecated",
      ".husky/_/.gitignore": "*",
      ".husky/pre-commit": "sh scripts/check.sh\nnode scripts/lint.js\n",
    });
    const run = { kind: "git-hook", hook: "pre-commit", file: ".husky/pre-commit" };
    expect(hookScriptRun(ws, "scripts/check.sh")).toEqual(run);
    // `node scripts/lint` would run it too: node's endings, as for install scripts.
    expect(hookScriptRun(ws, "scripts/lint.js")).toEqual(run);
    // husky's own `h` is read as husky's: its substitutions do not make every write a question,
    // and a shim whose hook the person never wrote (commit-msg) runs nothing.
    expect(hookScriptRun(ws, "src/app.js")).toBeUndefined();
  });

  it("husky v4–v8: the preamble sourcing husky.sh is husky's, the rest is read", () => {
    const ws = repository("\thooksPath = .husky\n", {
      ".husky/_/husky.sh": "#!/usr/bin/env sh\n",
      ".husky/pre-push":
        '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\nnode tools/push.js\n',
    });
    expect(hookScriptRun(ws, "tools/push.js")).toEqual({
      kind: "git-hook",
      hook: "pre-push",
      file: ".husky/pre-push",
    });
    expect(hookScriptRun(ws, "src/app.js")).toBeUndefined();
  });

  it("a plain .git/hooks hook, comments skipped; a .sample hook is never run", () => {
    const ws = repository("", {
      ".git/hooks/pre-commit": "#!/bin/sh\n# lint *.js with `node`\nnode scripts/lint.js\n",
      ".git/hooks/pre-push.sample": "#!/bin/sh\nnode scripts/sample.js\n",
    });
    expect(hookScriptRun(ws, "scripts/lint.js")).toEqual({
      kind: "git-hook",
      hook: "pre-commit",
      file: ".git/hooks/pre-commit",
    });
    expect(hookScriptRun(ws, "scripts/sample.js")).toBeUndefined();
    expect(hookScriptRun(ws, "src/app.js")).toBeUndefined();
  });

  it("the folder core.hooksPath names, not .git/hooks; each word counts", () => {
    const ws = repository("\thooksPath = githooks\n", {
      "githooks/commit-msg": "#!/bin/sh\nnpx --no -- commitlint --edit ${1}\n",
      "githooks/pre-push": "#!/bin/sh\n./tools/push.sh\necho see docs/push.md\n",
      ".git/hooks/pre-commit": "#!/bin/sh\nnode scripts/unused.js\n",
    });
    expect(hookScriptRun(ws, "tools/push.sh")).toEqual({
      kind: "git-hook",
      hook: "pre-push",
      file: "githooks/pre-push",
    });
    expect(hookScriptRun(ws, "docs/push.md")).toEqual({
      kind: "git-hook",
      hook: "pre-push",
      file: "githooks/pre-push",
    });
    expect(hookScriptRun(ws, "scripts/unused.js")).toBeUndefined();
  });

  it("a hook whose words a glob hides may run any file: every write is its", () => {
    const ws = repository("", {
      ".git/hooks/pre-commit": "#!/bin/sh\nfor f in scripts/*.sh; do sh $f; done\n",
    });
    expect(hookScriptRun(ws, "src/app.js")).toEqual({
      kind: "git-hook",
      hook: "pre-commit",
      file: ".git/hooks/pre-commit",
      unread:
        'sh is given "$f", a name the shell expands, so the harness cannot say which file runs; name the file plainly',
    });
  });

  it("a hook that cannot be read (a compiled program, one too long) may run any file", () => {
    const binary = repository("", { ".git/hooks/pre-commit": "\u007fELF\u0000\u0001" });
    expect(hookScriptRun(binary, "src/app.js")).toEqual({
      kind: "git-hook",
      hook: "pre-commit",
      file: ".git/hooks/pre-commit",
      unread: "it is not a script",
    });
    const long = repository("", { ".git/hooks/pre-push": `#!/bin/sh\n${"true\n".repeat(60_000)}` });
    expect(hookScriptRun(long, "src/app.js")).toEqual({
      kind: "git-hook",
      hook: "pre-push",
      file: ".git/hooks/pre-push",
      unread: "it is larger than 262144 bytes",
    });
  });

  it("outside any repository there are no hooks", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "hook-scripts-")));
    made.push(dir);
    expect(hookScriptRun(dir, "scripts/check.sh")).toBeUndefined();
  });
});
