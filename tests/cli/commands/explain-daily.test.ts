/**
 * `agent explain` under the daily profile, given by the settings file or by `--profile daily`:
 * the profile is named, its prompt is `[y/N/a]` with each answer's decision, and a personal rule
 * shows where it takes part (a deny among the rules, an allow answering the ask before the
 * person). The run options that decide a call are taken as flags, as a run takes them.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { explainCommand } from "../../../src/cli/commands/explain.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

const RULES = [
  { behavior: "allow", tool: "write_file", path: "src/**" },
  { behavior: "deny", tool: "write_file", path: "secret/**" },
];

let temp: TempWorkspace;
let home: string;
beforeEach(async () => {
  temp = await makeTempWorkspace();
  home = join(temp.base, "home");
  await mkdir(join(home, ".config", "agent-harness"), { recursive: true });
});
afterEach(async () => {
  await temp.cleanup();
});

async function settingsFile(settings: object): Promise<void> {
  await writeFile(
    join(home, ".config", "agent-harness", "settings.json"),
    JSON.stringify(settings),
  );
}

async function explain(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ code: number; out: string; err: string }> {
  return runCapturedSubcommand(explainCommand, [...args, "--workspace", temp.ws], {
    home,
    cwd: temp.ws,
    env: { PATH: process.env.PATH, ...env },
  });
}

const WRITE_ASK_RULE =
  "ask (confirm-file-write) - File writes require explicit approval from chapter 3 onward";

describe("agent explain, daily profile from the settings file", () => {
  beforeEach(() => settingsFile({ profile: "daily", rules: RULES }));

  it("says why an allow rule whose glob matches does not cover a file loaded later", async () => {
    const run = await explain(["write_file", '{"path":"src/AGENTS.md","content":"x"}']);
    expect(run.out).toContain(
      "\nnote: Your rule allow write_file src/** does not cover it: instructions the next agent session loads into its prompt",
    );
    const plain = await explain(["write_file", '{"path":"b.ts","content":"x"}']);
    expect(plain.out).not.toContain("note:");
  });

  it("an allow rule does not cover a file a git hook runs either", async () => {
    await mkdir(join(temp.ws, ".git", "hooks"), { recursive: true });
    await writeFile(join(temp.ws, ".git", "HEAD"), "ref: refs/heads/main\n");
    await writeFile(join(temp.ws, ".git", "config"), "[core]\n\tbare = false\n");
    await writeFile(join(temp.ws, ".git", "hooks", "pre-commit"), "#!/bin/sh\nnode src/hook.js\n");
    const env = { GIT_CONFIG_SYSTEM: join(temp.base, "none") };
    const run = await explain(["write_file", '{"path":"src/hook.js","content":"x"}'], env);
    expect(run.out).toContain(
      "\nnote: Your rule allow write_file src/** does not cover it: git's pre-commit hook (.git/hooks/pre-commit) runs it at the next commit",
    );
    const plain = await explain(["write_file", '{"path":"src/app.js","content":"x"}'], env);
    expect(plain.out).not.toContain("note:");
  });

  it("names the profile and asks [y/N/a], with the decision of each answer", async () => {
    const json = '{"path":"b.ts","content":"x"}';
    const run = await explain(["write_file", json]);
    expect(run).toMatchObject({ code: 0, err: "" });
    expect(run.out).toBe(
      [
        ...dailyWriteOpening(json),
        `rules: ${WRITE_ASK_RULE}`,
        `merge: ${WRITE_ASK_RULE}`,
        "approval: the person is asked [y/N/a] (a: this exact action, for the rest of this run)",
        "decision on y: allow (terminal-approval) - User approved this tool call",
        "audit on y: [Permission] write_file: allow (terminal-approval) - User approved this tool call",
        "decision on a: allow (terminal-approval) - User approved this action for the rest of this run",
        "audit on a: [Permission] write_file: allow (terminal-approval) - User approved this action for the rest of this run",
        "decision otherwise: deny (terminal-approval) - User denied this tool call",
        "audit otherwise: [Permission] write_file: deny (terminal-approval) - User denied this tool call",
        "nothing was executed",
        "",
      ].join("\n"),
    );
  });

  it("a personal allow answers the ask at the approval stage, before the person", async () => {
    const json = '{"path":"src/a.ts","content":"x"}';
    const allow = "allow (personal-rule) - Your settings file: allow write_file src/**";
    const run = await explain(["write_file", json]);
    expect(run).toMatchObject({ code: 0, err: "" });
    expect(run.out).toBe(
      [
        ...dailyWriteOpening(json),
        `rules: ${WRITE_ASK_RULE}`,
        `merge: ${WRITE_ASK_RULE}`,
        `approval: answered without asking the person: ${allow}`,
        `decision: ${allow}`,
        `audit: [Permission] write_file: ${allow}`,
        "nothing was executed",
        "",
      ].join("\n"),
    );
  });

  it("an edit that cannot apply is put to nobody, after the rules, as the run does", async () => {
    await writeFile(join(temp.ws, "list.txt"), "item\nitem\n");
    const json = '{"path":"list.txt","old_string":"item","new_string":"x"}';
    const run = await explain(["edit_file", json]);
    expect(run).toMatchObject({ code: 0, err: "" });
    expect(run.out).toBe(
      [
        `$ agent explain edit_file '${json}' --profile daily`,
        `prepare: ok · edit_file (effect write) ${json}`,
        "workspace boundary: —",
        "execution environment: —",
        "recommendations: —",
        `rules: ${WRITE_ASK_RULE}`,
        `merge: ${WRITE_ASK_RULE}`,
        "approval: not asked, the call cannot succeed: Error [edit_ambiguous]: old_string occurs 2 times in list.txt; add surrounding lines to make it unique, or set replace_all to true to replace every occurrence",
        "audit: none (no decision is made for a call that cannot succeed)",
        "nothing was executed",
        "",
      ].join("\n"),
    );
  });

  it("a personal deny is one of the rules, and wins the merge", async () => {
    const json = '{"path":"secret/a","content":"x"}';
    const deny = "deny (personal-rule) - Your settings file: deny write_file secret/**";
    const run = await explain(["write_file", json]);
    expect(run).toMatchObject({ code: 0, err: "" });
    expect(run.out).toBe(
      [
        ...dailyWriteOpening(json),
        `rules: ${deny}; ${WRITE_ASK_RULE}`,
        `merge: ${deny}`,
        "approval: not asked",
        `decision: ${deny}`,
        `audit: [Permission] write_file: ${deny}`,
        "nothing was executed",
        "",
      ].join("\n"),
    );
  });
});

describe("agent explain takes the run options that decide a call", () => {
  const shell = ["shell", '{"command":"echo hi"}'];

  it("--profile daily as a flag explains as the settings file's profile does", async () => {
    await settingsFile({ rules: RULES });
    const json = '{"path":"src/a.ts","content":"x"}';
    const flagged = await explain(["write_file", json, "--profile", "daily"]);
    await settingsFile({ profile: "daily", rules: RULES });
    const fromFile = await explain(["write_file", json]);
    expect(flagged).toMatchObject({ code: 0, err: "" });
    expect(flagged.out).toBe(fromFile.out);
    expect(flagged.out).toContain(
      "\ndecision: allow (personal-rule) - Your settings file: allow write_file src/**\n",
    );
  });

  it("--profile daily on a shell command run on the host: [y/N], no a, and why", async () => {
    const run = await explain([...shell, "--profile", "daily", "--sandbox", "off"]);
    expect(run).toMatchObject({ code: 0, err: "" });
    const lines = run.out.split("\n");
    expect(lines[0]).toBe(`$ agent explain shell '{"command":"echo hi"}' --profile daily`);
    expect(lines).toContain(
      "approval: the person is asked [y/N] (no a here: commands run outside the sandbox here, where one allowed again could change files that later sessions, editors or shells load)",
    );
    expect(lines.filter((line) => line.startsWith("decision on a:"))).toEqual([]);
  });

  it("--profile daily on a write, with commands on the host: [y/N/a] as before", async () => {
    const write = ["write_file", '{"path":"notes.txt","content":"x"}'];
    const run = await explain([...write, "--profile", "daily", "--sandbox", "off"]);
    expect(run).toMatchObject({ code: 0, err: "" });
    const lines = run.out.split("\n");
    expect(lines).toContain(
      "approval: the person is asked [y/N/a] (a: this exact action, for the rest of this run)",
    );
    expect(lines).toContain(
      "decision on a: allow (terminal-approval) - User approved this action for the rest of this run",
    );
  });

  it("--sandbox off as a flag explains as AGENT_SANDBOX=off does: commands on the host", async () => {
    const flagged = await explain([...shell, "--sandbox", "off"]);
    const fromEnv = await explain(shell, { AGENT_SANDBOX: "off" });
    expect(flagged).toMatchObject({ code: 0, err: "" });
    expect(flagged.out).toBe(fromEnv.out);
    expect(flagged.out).toMatch(
      /\naudit otherwise: \[Permission\] shell: deny \(terminal-approval\) - User denied this tool call \[sandbox: none — runs on the host \(sandbox off\)\] /u,
    );
  });

  it("--chapter and --profile together are refused, as for a run", async () => {
    const run = await explain([...shell, "--chapter", "3", "--profile", "daily"]);
    expect(run).toEqual({
      code: 2,
      out: "",
      err: "agent: --profile and --chapter both choose the profile: give one of them\n",
    });
  });

  it.each([["--model", "gpt-4.1"], ["--max-turns", "3"], ["--lang", "zh"], ["--quiet"]])(
    "%s, which decides no call, is refused",
    async (name, ...value) => {
      const run = await explain([...shell, name, ...value]);
      expect(run.code).toBe(2);
      expect(run.out).toBe("");
      expect(run.err).toMatch(new RegExp(`^agent: Unknown option '${name}'`, "u"));
    },
  );
});

/** The lines every daily-profile explain of a plain `write_file` starts with. */
function dailyWriteOpening(json: string): string[] {
  return [
    `$ agent explain write_file '${json}' --profile daily`,
    `prepare: ok · write_file (effect write) ${json}`,
    "workspace boundary: —",
    "execution environment: —",
    "recommendations: —",
  ];
}
