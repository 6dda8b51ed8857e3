/**
 * A fresh workspace folder for each test of a file, removed after the test, and a `write` that
 * makes the folders a file needs: what tests of bindings set up again and again. `onRoot` is told
 * each test's folder (its real path), so a file keeps its own `workspace` variable.
 *
 *   let workspace = "";
 *   const write = scratchWorkspace("shell-binding-", (root) => (workspace = root));
 *   write("package.json", { scripts: { test: "ava" } }); // → "sha256 …" of what was written
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach } from "vitest";

/** Writes `content` (a string as it is, anything else as JSON) at `path`; `sha256 <hex>` of it. */
export type WorkspaceWrite = (path: string, content: unknown) => string;

export function scratchWorkspace(prefix: string, onRoot: (root: string) => void): WorkspaceWrite {
  let root: string | undefined;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    onRoot(root);
  });
  afterEach(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });
  return (path, content) => {
    if (root === undefined) throw new Error("scratchWorkspace: write outside a test");
    const text = typeof content === "string" ? content : JSON.stringify(content);
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    return `sha256 ${createHash("sha256").update(text).digest("hex")}`;
  };
}
