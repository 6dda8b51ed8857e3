import { existsSync, linkSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv } from "./cli-process.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();
const CASES: [string, string, ((ws: string) => void)?][] = [
  ["agentſ.md", "write_file"],
  ["AGENTS.md.", "write_file"],
  ["AGENTS.md ", "write_file"],
  ["AGENTS.md::$DATA", "write_file"],
  [".gıthub/workflows/ci.yml", "write_file"],
  ["Jenkinsfile", "write_file"],
  [".github./workflows/ci.yml", "write_file"],
  [".vscode /tasks.json", "write_file"],
  ["docs/../AGENTS.md", "write_file"],
  ["sub/AGENTS.MD", "write_file"],
  ["notes.md", "write_file", (ws) => { writeFileSync(join(ws, "AGENTS.md"), "A\n"); symlinkSync("AGENTS.md", join(ws, "notes.md")); }],
  ["cfg/tasks.json", "write_file", (ws) => { mkdirSync(join(ws, ".vscode")); symlinkSync(".vscode", join(ws, "cfg")); }],
  ["dangle.md", "write_file", (ws) => { symlinkSync(".github/workflows/new.yml", join(ws, "dangle.md")); }],
  ["hl.md", "write_file", (ws) => { writeFileSync(join(ws, "AGENTS.md"), "A\n"); linkSync(join(ws, "AGENTS.md"), join(ws, "hl.md")); }],
  ["AGENTS.md", "edit_file", (ws) => { writeFileSync(join(ws, "AGENTS.md"), "A\n"); }],
  ["hl.md", "edit_file", (ws) => { writeFileSync(join(ws, "AGENTS.md"), "A\n"); linkSync(join(ws, "AGENTS.md"), join(ws, "hl.md")); }],
  [".envrc", "write_file"],
  ["package.json", "edit_file", (ws) => { writeFileSync(join(ws, "package.json"), '{"scripts":{"test":"A"}}'); }],
];
describe("explore", () => {
  it.each(CASES)("%s via %s", async (path, tool, setup) => {
    const ws = e2e.dir.workspace;
    setup?.(ws);
    const args = tool === "write_file" ? { path, content: "EVIL\n" } : { path, old_string: "A", new_string: "EVIL" };
    e2e.server.script(chatToolCallsReply([{ id: "c1", name: tool, arguments: args }]), chatTextReply("Done."));
    const run = await runCli(["--chapter", "4", "--sandbox", "off", "--prompt", "go", "--workspace", ws], {
      env: serverEnv(e2e.server.baseURL, { AGENT_STATE_DIR: join(e2e.dir.root, "state"), HOME: join(e2e.dir.root, "home") }),
    });
    const files = readdirSync(ws, { recursive: true }).join(",");
    console.log(`RESULT ${JSON.stringify(path)} ${tool}: exit ${run.exitCode}; model: ${JSON.stringify(toolResults(e2e.server.requests[1]))}; files: ${files}; ${run.stderr.split("\n").find((l) => l.includes("waiting") || l.includes("rror")) ?? ""}`);
  }, 60_000);
});
