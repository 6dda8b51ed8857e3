/**
 * The design card's usage line, typed in PowerShell: `npm run agent -- --prompt '…'` through npm's
 * own PowerShell shim (npm.ps1), in a real pseudo-terminal, from a project directory whose `agent`
 * script runs the built CLI. On Windows `npm` in PowerShell is npm.ps1 beside node.exe; here the
 * same layout is built in a temp directory (a copy of npm.ps1, `node`, `node_modules/npm`) and put
 * first on PATH, so pwsh resolves the bare `npm` to npm.ps1 exactly as it does there.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { POWERSHELL_TEST_ENV, PWSH as PATH_PWSH } from "../support/host-executables.js";
import { isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { useAgentFixture } from "./agent-fixture.js";
import { CLI_PATH, serverEnv } from "./cli-process.js";
import { toolResults } from "./scripted-chat-server.js";

const PWSH = process.platform === "win32" ? undefined : PATH_PWSH;
const GLOBAL_NPM = globalNpmPackage();
const NPM_PS1 = GLOBAL_NPM === undefined ? undefined : join(GLOBAL_NPM, "bin", "npm.ps1");
const MISSING = [
  PWSH === undefined ? "pwsh" : undefined,
  NPM_PS1 === undefined || !existsSync(NPM_PS1) ? "npm.ps1" : undefined,
  isPtyAvailable() ? undefined : "util-linux script",
].filter((name) => name !== undefined);
const SUITE =
  MISSING.length === 0
    ? "the card's command line in real pwsh through npm.ps1, in a pty"
    : `the card's command line in pwsh (skipped: needs ${MISSING.join(", ")}; POSIX only)`;

const CARD_PROMPT = "列出这个项目的文件";
/** Single quotes, double quotes and `$` inside, as a PowerShell single-quoted literal keeps them. */
const QUOTED_PROMPT = `it's "quoted" $HOME $(whoami) 中文`;
const QUESTION = "Allow this call? [y/N] ";

const e2e = useAgentFixture();

function globalNpmPackage(): string | undefined {
  const root = spawnSync("npm", ["root", "-g"], { encoding: "utf8" });
  return root.status === 0 ? join(root.stdout.trim(), "npm") : undefined;
}

/** A PowerShell single-quoted literal: nothing inside is expanded; `'` is doubled. */
function psQuoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** Drops OSC sequences (ESC ] … BEL), which set the window title and show nothing. */
function withoutTitles(raw: string): string {
  let text = raw;
  for (let start = text.indexOf("\u001b]"); start !== -1; start = text.indexOf("\u001b]", start)) {
    const end = text.indexOf("\u0007", start);
    text = end === -1 ? text.slice(0, start) : text.slice(0, start) + text.slice(end + 1);
  }
  return text;
}

describe.skipIf(MISSING.length > 0)(SUITE, () => {
  it("keeps the prompt, --prompt and --workspace intact, asks y/N at the pwsh terminal, and hands the exit code to $LASTEXITCODE", async () => {
    const project = e2e.dir.workspace;
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({
        name: "card-project",
        private: true,
        scripts: { agent: `node ${JSON.stringify(CLI_PATH)}` },
      }),
    );
    await mkdir(join(project, "src"));
    await writeFile(join(project, "src", "app.py"), "print('hi')\n");
    const shim = join(e2e.dir.root, "npm-shim");
    await mkdir(join(shim, "node_modules"), { recursive: true });
    await copyFile(NPM_PS1 ?? "", join(shim, "npm.ps1"));
    await symlink(process.execPath, join(shim, "node"));
    await symlink(GLOBAL_NPM ?? "", join(shim, "node_modules", "npm"));

    const script = join(e2e.dir.root, "card.ps1");
    await writeFile(
      script,
      [
        `Set-Location -LiteralPath ${psQuoted(project)}`,
        'Write-Output "npm is $((Get-Command npm).Source)"',
        // The card's line, as typed.
        `npm run agent -- --prompt ${psQuoted(CARD_PROMPT)}`,
        'Write-Output "exit code: $LASTEXITCODE"',
        `npm run agent -- --workspace ${psQuoted(join(project, "src"))} --prompt ${psQuoted(QUOTED_PROMPT)}`,
        'Write-Output "exit code: $LASTEXITCODE"',
        "npm run agent -- --lang fr --prompt 'a configuration error'",
        'Write-Output "exit code: $LASTEXITCODE"',
        "",
      ].join("\n"),
    );
    e2e.server.script(
      chatToolCallsReply([{ id: "call_ls", name: "shell", arguments: { command: "ls" } }]),
      chatTextReply("这个项目有 package.json 和 src。"),
      chatTextReply("Got it."),
    );

    const { exitCode, output } = await runInPty(
      [PWSH ?? "pwsh", "-NoLogo", "-NoProfile", "-File", script],
      {
        env: serverEnv(e2e.server.baseURL, {
          PATH: `${shim}:${POWERSHELL_TEST_ENV.PATH ?? ""}`,
          POWERSHELL_TELEMETRY_OPTOUT: "1",
          npm_config_update_notifier: "false",
        }),
        prompt: QUESTION,
        answers: ["y\r"],
        waitTimeoutMs: 90_000,
      },
    );
    // npm sets the window title (OSC 0); the screen reader keeps only CSI sequences' effects.
    const screen = terminalScreenLines(withoutTitles(output));

    expect(exitCode).toBe(0);
    expect(screen).toContain(`npm is ${join(shim, "npm.ps1")}`);
    // The model saw each prompt exactly as typed, and --workspace reached the agent, not npm.
    const requests = e2e.server.requests;
    expect(requests).toHaveLength(3);
    expect(requests[0]?.messages[1]).toEqual({ role: "user", content: CARD_PROMPT });
    expect(JSON.stringify(requests[0]?.tools)).toContain(`the workspace ${project} as`);
    expect(toolResults(requests[1]).call_ls?.split("\n")).toEqual(
      expect.arrayContaining(["package.json", "src"]),
    );
    expect(requests[2]?.messages[1]).toEqual({ role: "user", content: QUOTED_PROMPT });
    expect(JSON.stringify(requests[2]?.tools)).toContain(
      `the workspace ${join(project, "src")} as`,
    );
    // Answered at the pwsh terminal; the audit line is plain and readable.
    expect(screen).toContain(`${QUESTION}y`);
    expect(
      screen.filter((line) => line.startsWith("[Permission] ")).map((line) => line.trimEnd()),
    ).toEqual([
      expect.stringMatching(
        /^\[Permission\] shell: allow \(terminal-approval\) - User approved this tool call( \[[^\]]+\])?( \{[^}]+\})?$/,
      ),
    ]);
    // On a terminal the model's answer is indented: only the harness writes at column 0.
    expect(screen).toContain("  这个项目有 package.json 和 src。");
    expect(screen).toContain('agent: --lang must be one of en, zh (got "fr") (see --help)');
    expect(screen.filter((line) => line.startsWith("exit code: "))).toEqual([
      "exit code: 0",
      "exit code: 0",
      "exit code: 2",
    ]);
    expect(output).not.toContain("Unknown cli config");
  }, 240_000);
});
