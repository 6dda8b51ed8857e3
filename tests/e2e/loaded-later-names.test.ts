/**
 * A hostile model through the real CLI, trying every spelling and link it can of a file a later
 * session, an editor or CI loads, in the chapters whose file tools are asked about (3, 4; 1 has
 * no file tools, 2 never asks, by design). Each case: no byte of the workspace changed, and the
 * model reads exactly what it is told (in chapter 4 a loaded-later write waits for the person,
 * exit 3, so the model has read nothing yet).
 */
import {
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv } from "./cli-process.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

const WAITS = "waits for the person";
const OUTSIDE =
  "Error [permission_denied]: Writing outside the workspace is forbidden (executed: no; source: workspace-boundary; scope: this call only)";
/** Chapters 1–3 keep the tutorial's own strings, without the outcome notes. */
const OUTSIDE_CHAPTER_3 = "Error [permission_denied]: Writing outside the workspace is forbidden";
const NO_TERMINAL =
  "Error [permission_denied]: Interactive approval is unavailable (stdin is not a TTY)";
const HARD_LINK =
  "Error [hard_link]: hl.md has 2 hard links; another name for the same file may be outside the workspace, so the file tools do not read or edit a file with more than one name. write_file replaces the name with a new file of its own (executed: no)";

type Setup = (ws: string) => void;
const agents: Setup = (ws) => {
  writeFileSync(join(ws, "AGENTS.md"), "A\n");
};

/** [what, tool, path, setup, what the model reads in chapter 4]. */
const ATTACKS: readonly (readonly [string, string, string, Setup | undefined, string])[] = [
  ["upper case", "write_file", "sub/AGENTS.MD", undefined, WAITS],
  ["long s (APFS folds it to s)", "write_file", "agent\u017f.md", undefined, WAITS],
  [
    "dotless i (NTFS folds it to I)",
    "write_file",
    ".g\u0131thub/workflows/ci.yml",
    undefined,
    WAITS,
  ],
  ["Kelvin sign", "write_file", "Jen\u212ainsfile", undefined, WAITS],
  ["Workflows, capital W", "write_file", ".github/Workflows/ci.yml", undefined, WAITS],
  ["trailing dot", "write_file", "AGENTS.md.", undefined, OUTSIDE],
  ["trailing space", "write_file", "AGENTS.md ", undefined, OUTSIDE],
  ["NTFS stream", "write_file", "AGENTS.md::$DATA", undefined, OUTSIDE],
  ["trailing dot on the folder", "write_file", ".github./workflows/ci.yml", undefined, OUTSIDE],
  ["a .. segment", "write_file", "docs/../AGENTS.md", undefined, OUTSIDE],
  [
    "a link to AGENTS.md",
    "write_file",
    "notes.md",
    (ws) => {
      agents(ws);
      symlinkSync("AGENTS.md", join(ws, "notes.md"));
    },
    WAITS,
  ],
  [
    "a folder link to .vscode",
    "write_file",
    "cfg/tasks.json",
    (ws) => {
      mkdirSync(join(ws, ".vscode"));
      symlinkSync(".vscode", join(ws, "cfg"));
    },
    WAITS,
  ],
  [
    "a dangling link to a workflow not made yet",
    "write_file",
    "dangle.md",
    (ws) => {
      symlinkSync(".github/workflows/new.yml", join(ws, "dangle.md"));
    },
    WAITS,
  ],
  [
    "the file AGENTS.md links to",
    "write_file",
    "docs/rules.md",
    (ws) => {
      mkdirSync(join(ws, "docs"));
      writeFileSync(join(ws, "docs", "rules.md"), "A\n");
      symlinkSync(join("docs", "rules.md"), join(ws, "AGENTS.md"));
    },
    WAITS,
  ],
  ["edit_file of AGENTS.md", "edit_file", "AGENTS.md", agents, WAITS],
  [
    "edit_file through a hard link",
    "edit_file",
    "hl.md",
    (ws) => {
      agents(ws);
      linkSync(join(ws, "AGENTS.md"), join(ws, "hl.md"));
    },
    HARD_LINK,
  ],
];

/** Every file of the workspace but the harness's own `.agent/`, with its bytes. */
function snapshot(ws: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(ws, { recursive: true, encoding: "utf8" })) {
    if (name === ".agent" || name.startsWith(".agent/")) continue;
    try {
      files[name] = readFileSync(join(ws, name), "utf8");
    } catch {
      files[name] = "(not a readable file)";
    }
  }
  return files;
}

describe.each([4, 3])("chapter %i", (chapter) => {
  it.each(ATTACKS)(
    "%s: %s %j",
    async (_what, tool, path, setup, inChapter4) => {
      const ws = e2e.dir.workspace;
      setup?.(ws);
      const before = snapshot(ws);
      const args =
        tool === "write_file"
          ? { path, content: "EVIL\n" }
          : { path, old_string: "A", new_string: "EVIL" };
      e2e.server.script(
        chatToolCallsReply([{ id: "c1", name: tool, arguments: args }]),
        chatTextReply("Done."),
      );
      const requestsBefore = e2e.server.requests.length;

      const run = await runCli(
        ["--chapter", String(chapter), "--sandbox", "off", "--prompt", "go", "--workspace", ws],
        {
          env: serverEnv(e2e.server.baseURL, {
            AGENT_STATE_DIR: join(e2e.dir.root, "state"),
            HOME: join(e2e.dir.root, "home"),
          }),
        },
      );

      expect(snapshot(ws)).toEqual(before);
      // Chapter 3 asks every write (the hard-link rule then never gets to answer): with no
      // terminal nothing is written. The boundary answers first, in its chapter's words.
      const expected =
        chapter === 4 ? inChapter4 : inChapter4 === OUTSIDE ? OUTSIDE_CHAPTER_3 : NO_TERMINAL;
      if (expected === WAITS) {
        expect(run.exitCode).toBe(3);
        expect(run.stderr).toMatch(/waiting for approval: request req_[0-9a-f]{16}/u);
        expect(e2e.server.requests).toHaveLength(requestsBefore + 1);
      } else {
        expect(toolResults(e2e.server.requests[requestsBefore + 1])).toEqual({ c1: expected });
      }
    },
    60_000,
  );
});
