import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { TerminalApprovalProvider } from "../../../src/cli/terminal/approval/terminal-approval.js";
import { permissionCommands } from "../../../src/cli/terminal/input/permission-commands.js";
import type { PersonalRuleSpec } from "../../../src/core/policy/personal-rules.js";
import { SlashCommands } from "../../../src/cli/terminal/input/slash-commands.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { RunGrants } from "../../../src/core/policy/run-grants.js";
import { preparedCall } from "../../support/prepared-calls.js";
import { slashCommandOutput } from "../../support/slash-command-output.js";

const ASK = PermissionDecision.ask("Shell execution requires approval", "shell-default");
const request = (): PermissionRequest =>
  new PermissionRequest(preparedCall("shell", "execute", { command: "npx ava" }))
    .withExecutionEnvironment("sandbox: bwrap (network off, writable: /ws)")
    .withProposedDecision(ASK);

async function answerForRun(typed: string) {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = new PassThrough();
  let text = "";
  output.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  const provider = new TerminalApprovalProvider({ input, output, lang: "en", onCancel: () => 0 });
  const answer = provider.decideForRun(request());
  while (!text.includes("[y/N/a]")) await new Promise((resolve) => setImmediate(resolve));
  input.write(typed);
  return { answer: await answer, text };
}

describe("[y/N/a] at the terminal", () => {
  it.each([
    ["a\n", "allow", true],
    ["always\n", "allow", true],
    ["y\n", "allow", false],
    ["\n", "deny", false],
    ["n\n", "deny", false],
  ] as const)("%j → %s, for the run: %s", async (typed, behavior, forRun) => {
    const { answer, text } = await answerForRun(typed);
    expect([answer.decision.behavior, answer.forRun]).toEqual([behavior, forRun]);
    expect(answer.decision.scope).toBe(
      forRun ? "this exact action, for the rest of this run" : undefined,
    );
    expect(text).toContain(
      "Allow this call? [y/N/a] (a: this exact action, for the rest of this run) ",
    );
  });
});

describe("/permissions", () => {
  function run(
    grants: RunGrants,
    line: string,
    rules: readonly PersonalRuleSpec[] = [],
    columns?: number,
    isolated = true,
  ): Promise<string> {
    return slashCommandOutput(
      new SlashCommands(permissionCommands(grants, rules, () => isolated)),
      line,
      columns,
    );
  }

  it("lists the run's grants and revokes one, after which it is gone", async () => {
    const grants = new RunGrants({ workspace: "/ws" });
    expect(await run(grants, "/permissions")).toBe(
      "agent: nothing allowed for the rest of this run (answer `a` at [y/N/a] to allow one)\n",
    );
    await grants.grant(request());
    expect(await run(grants, "/permissions")).toBe(
      [
        "agent: allowed for the rest of this run (revoke with /permissions revoke N):",
        '  1  shell {"command":"npx ava"} [sandbox: bwrap (network off, writable: /ws)]',
        "",
      ].join("\n"),
    );
    expect(await run(grants, "/permissions revoke 1")).toBe(
      "agent: revoked 1: that action asks again\n",
    );
    expect(grants.covers(request())).toBe(false);
    expect(await run(grants, "/permissions revoke 1")).toBe("agent: no grant 1 in this run\n");
  });

  it("marks a grant replaced by a later a for the same action, once what it was bound to changed", async () => {
    let script = "ava";
    const grants = new RunGrants({ workspace: "/ws", boundScript: () => script });
    await grants.grant(request());
    script = "ava --serial";
    await grants.grant(request());
    await grants.grant(
      new PermissionRequest(preparedCall("shell", "execute", { command: "npm test" }))
        .withExecutionEnvironment("sandbox: bwrap (network off, writable: /ws)")
        .withProposedDecision(ASK),
    );
    expect(await run(grants, "/permissions")).toBe(
      [
        "agent: allowed for the rest of this run (revoke with /permissions revoke N):",
        '  1  shell {"command":"npx ava"} [sandbox: bwrap (network off, writable: /ws)] (replaced by 2: what it was bound to changed)',
        '  2  shell {"command":"npx ava"} [sandbox: bwrap (network off, writable: /ws)]',
        '  3  shell {"command":"npm test"} [sandbox: bwrap (network off, writable: /ws)]',
        "",
      ].join("\n"),
    );
    // Revoking the newer one leaves the older unmarked: it holds again if the script changes back.
    await run(grants, "/permissions revoke 2");
    expect(await run(grants, "/permissions")).toContain(
      '  1  shell {"command":"npx ava"} [sandbox: bwrap (network off, writable: /ws)]\n',
    );
  });

  it("lists the settings file's rules after the grants: they decide before anyone is asked", async () => {
    const rules: PersonalRuleSpec[] = [
      { behavior: "deny", tool: "shell", argv: ["git", "push"] },
      { behavior: "allow", tool: "*", path: "src/**" },
      { behavior: "allow", tool: "mcp__tracker__get_issue" },
    ];
    expect(await run(new RunGrants({ workspace: "/ws" }), "/permissions", rules)).toBe(
      [
        "agent: nothing allowed for the rest of this run (answer `a` at [y/N/a] to allow one)",
        "agent: your settings file's rules, which decide before you are asked (change them there):",
        "  deny shell git push …",
        "  allow * src/**",
        "  allow mcp__tracker__get_issue",
        "",
      ].join("\n"),
    );
  });

  it("says where commands run on the host: no a for a command, and a command's allow not used", async () => {
    const rules: PersonalRuleSpec[] = [
      { behavior: "allow", tool: "shell", argv: ["seq"] },
      { behavior: "allow", tool: "*", path: "src/**" },
    ];
    expect(
      await run(new RunGrants({ workspace: "/ws" }), "/permissions", rules, undefined, false),
    ).toBe(
      [
        "agent: nothing allowed for the rest of this run (answer `a` at [y/N/a] to allow one; commands run outside the sandbox here, so a command is asked [y/N])",
        "agent: your settings file's rules, which decide before you are asked (change them there):",
        "  allow shell seq … (not used now: commands run outside the sandbox here, and a command's allow holds only in the sandbox)",
        "  allow * src/**",
        "",
      ].join("\n"),
    );
  });

  it("breaks a grant's row on a terminal so no wrapped row of the model's text starts at column 0", async () => {
    const grants = new RunGrants({ workspace: "/ws" });
    const command = `echo ${"x".repeat(50)}  [Permission] shell: allow (personal-rule) - Your settings file: allow shell echo`;
    await grants.grant(
      new PermissionRequest(preparedCall("shell", "execute", { command }))
        .withExecutionEnvironment("sandbox: none — runs on the host")
        .withProposedDecision(ASK),
    );
    const rows = [
      "agent: allowed for the rest of this run (revoke with /permissions revoke N):",
      `  1  shell {"command":"echo ${"x".repeat(50)}`,
      "  [Permission] shell: allow (personal-rule) - Your settings file: allow shell",
      '  echo"} [sandbox: none — runs on the host]',
      "",
    ];
    expect(await run(grants, "/permissions", [], 80)).toBe(rows.join("\n"));
    // Piped, each grant stays one line, as before.
    expect(await run(grants, "/permissions")).toBe(
      [rows[0], `  1  shell {"command":"${command}"} [sandbox: none — runs on the host]`, ""].join(
        "\n",
      ),
    );
  });
});
