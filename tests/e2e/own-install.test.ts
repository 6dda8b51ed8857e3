/**
 * The agent run on its own package (a clone it was started from, `npm install -g .` linking to
 * it): the package's dist/, scripts/, manifests and node_modules are the code the host runs at the
 * next start, so the file tools refuse them at the boundary and the sandbox binds them read-only,
 * while the rest of the package stays an ordinary workspace.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, cp, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { linesOf, serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";
import { BWRAP_REASON, HAS_BWRAP } from "../support/bubblewrap.js";

const e2e = useAgentFixture();
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const DENIED =
  "Error [permission_denied]: Writing the harness's own files (its audit log, recording or install) is forbidden";

/** The built package as an install or clone holds it: package.json, dist/, scripts/, node_modules. */
async function copyPackage(root: string): Promise<void> {
  await mkdir(join(root, "dist"), { recursive: true });
  await mkdir(join(root, "node_modules"));
  await copyFile(join(REPO, "package.json"), join(root, "package.json"));
  for (const name of [
    "agent.cjs",
    "agent-bundle.cjs",
    "agent-zod.cjs",
    "agent-mcp.cjs",
    "agent-grep.cjs",
  ]) {
    await copyFile(join(REPO, "dist", name), join(root, "dist", name));
  }
  await cp(join(REPO, "scripts"), join(root, "scripts"), { recursive: true });
}

async function sha256(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

function write(id: string, path: string) {
  return { id, name: "write_file", arguments: { path, content: 'require("fs");\n' } };
}

describe.skipIf(!isPtyAvailable() || !HAS_BWRAP)(
  `the agent whose workspace is its own package ${PTY_REASON} ${BWRAP_REASON}`,
  () => {
    it("cannot change its install: file tools denied at the boundary, the sandbox read-only", async () => {
      const own = join(e2e.dir.workspace, "agent");
      await copyPackage(own);
      const bundle = join(own, "dist", "agent-bundle.cjs");
      const before = await sha256(bundle);
      const attack = [
        "{ echo 'require(1)' >> dist/agent-bundle.cjs; } 2>/dev/null || echo append-refused",
        "{ echo x > dist/agent-bundle.cache.1.tmp; } 2>/dev/null || echo plant-refused",
        "mv dist dist.old 2>/dev/null || echo move-refused",
        "{ echo '{}' > package.json; } 2>/dev/null || echo manifest-refused",
        "{ echo x > scripts/agent.cjs; } 2>/dev/null || echo script-refused",
        "mkdir node_modules/esbuild 2>/dev/null || echo modules-refused",
        "echo ok > notes.txt && echo notes-written",
      ].join("; ");
      e2e.server.script(
        chatToolCallsReply([
          write("call_bundle", "dist/agent-bundle.cjs"),
          write("call_new", "dist/evil.cjs"),
          write("call_manifest", "package.json"),
          write("call_modules", "node_modules/esbuild/index.js"),
          write("call_lock", "package-lock.json"),
        ]),
        chatToolCallsReply([{ id: "call_attack", name: "shell", arguments: { command: attack } }]),
        chatTextReply("Finished."),
      );

      const run = await runInPty(
        [
          process.execPath,
          join(own, "dist", "agent.cjs"),
          "--workspace",
          own,
          "--sandbox",
          "required",
          "--prompt",
          "Change yourself",
        ],
        { env: serverEnv(e2e.server.baseURL), prompt: "[y/N] ", answers: ["y\r"] },
      );

      expect(run.exitCode).toBe(0);
      expect(terminalScreenLines(run.output)).toContain("  Finished.");
      // One question, the command's: the writes were denied before any prompt.
      expect(run.output.split("Allow this call? [y/N] ")).toHaveLength(2);
      expect(toolResults(e2e.server.requests[1])).toEqual({
        call_bundle: DENIED,
        call_new: DENIED,
        call_manifest: DENIED,
        call_modules: DENIED,
        call_lock: DENIED,
      });
      expect(linesOf(toolResults(e2e.server.requests[2]).call_attack ?? "")).toEqual([
        "append-refused",
        "plant-refused",
        "move-refused",
        "manifest-refused",
        "script-refused",
        "modules-refused",
        "notes-written",
      ]);
      expect(await sha256(bundle)).toBe(before);
      expect(existsSync(join(own, "dist", "evil.cjs"))).toBe(false);
      expect(existsSync(join(own, "package-lock.json"))).toBe(false);
      expect(existsSync(join(own, "node_modules", "esbuild"))).toBe(false);
      expect(await readFile(join(own, "notes.txt"), "utf8")).toBe("ok\n");
    });
  },
);
