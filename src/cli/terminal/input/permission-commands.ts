/**
 * `/permissions` in a conversation of a profile with `[y/N/a]`: what the person allowed for the
 * rest of this run, and `/permissions revoke N` to take one back (the next such call asks again);
 * then the rules of their settings file, which decide before anyone is asked. Grants live in the
 * run's memory only, so there is nothing to clean up after it.
 */
import { describeRule, type PersonalRuleSpec } from "../../../core/policy/personal-rules.js";
import type { RunGrants } from "../../../core/policy/run-grants.js";
import { writeHarnessLines } from "../render/harness-rows.js";
import { escapeForPrompt } from "../render/terminal-text.js";
import type { SlashCommand, SlashCommandEnd } from "./slash-commands.js";

const REVOKE = /^revoke\s+(\d{1,9})$/u;

/** Said where commands run on the host: an `a` and an allow rule for a command hold only in the sandbox. */
const ON_THE_HOST = "commands run outside the sandbox here";

export function permissionCommands(
  grants: RunGrants,
  rules: readonly PersonalRuleSpec[],
  /** Whether commands run in the sandbox now. */
  commandsIsolated: () => boolean,
): SlashCommand[] {
  return [
    {
      name: "permissions",
      usage: "/permissions [revoke N]",
      summary: "What you allowed with `a` for this run; revoke N takes one back",
      run: async (args, state): Promise<SlashCommandEnd> => {
        if (args === "") {
          const listed = grants.list();
          const isolated = commandsIsolated();
          const lines =
            listed.length === 0
              ? [
                  isolated
                    ? "agent: nothing allowed for the rest of this run (answer `a` at [y/N/a] to allow one)"
                    : `agent: nothing allowed for the rest of this run (answer \`a\` at [y/N/a] to allow one; ${ON_THE_HOST}, so a command is asked [y/N])`,
                ]
              : [
                  "agent: allowed for the rest of this run (revoke with /permissions revoke N):",
                  ...listed.map((grant) => {
                    const replacement = grants.replacedBy(grant);
                    const replaced =
                      replacement === undefined
                        ? ""
                        : ` (replaced by ${String(replacement.id)}: what it was bound to changed)`;
                    return `  ${String(grant.id)}  ${grant.toolName} ${grant.arguments}${grant.environment === undefined ? "" : ` [${grant.environment}]`}${replaced}`;
                  }),
                ];
          const ruled =
            rules.length === 0
              ? []
              : [
                  "agent: your settings file's rules, which decide before you are asked (change them there):",
                  ...rules.map(
                    (rule) =>
                      `  ${rule.behavior} ${describeRule(rule)}${rule.behavior === "allow" && rule.argv !== undefined && !isolated ? ` (not used now: ${ON_THE_HOST}, and a command's allow holds only in the sandbox)` : ""}`,
                  ),
                ];
          const all = [...lines, ...ruled];
          // A grant's arguments are the model's: on a terminal no wrapped row of them starts at
          // column 0, where it could pass for a `[Permission]` line.
          writeHarnessLines(
            state.output,
            all.map((line) => escapeForPrompt(line)),
          );
          return "continue";
        }
        const match = REVOKE.exec(args);
        if (match?.[1] === undefined) {
          state.output.write("agent: /permissions takes nothing, or revoke N\n");
          return "continue";
        }
        const id = Number(match[1]);
        state.output.write(
          (await grants.revoke(id))
            ? `agent: revoked ${String(id)}: that action asks again\n`
            : `agent: no grant ${String(id)} in this run\n`,
        );
        return "continue";
      },
    },
  ];
}
