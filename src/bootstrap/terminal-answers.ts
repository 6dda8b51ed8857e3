/**
 * Who answers an `ask` on a terminal path (chapter 3 and the daily profile): the rules that ask
 * and the approver, with the person's rules and this run's grants in front of it as the profile
 * says.
 */
import type { ApprovalProvider } from "../core/policy/approval.js";
import type { PermissionRequest } from "../core/policy/permission-request.js";
import type { PermissionRule } from "../core/policy/permission-rule.js";
import type { PersonalRules } from "../core/policy/personal-rules.js";
import {
  DailyApprover,
  RunGrants,
  type RunApprovalAnswer,
  type RunApprovalPrompt,
} from "../core/policy/run-grants.js";
import type { ChapterProfile } from "../core/profiles.js";
import type { AgentDependencies } from "./agent-dependencies.js";
import { CONFIRM_EXTERNAL_CALL, CONFIRM_FILE_WRITE } from "./confirm-rules.js";

/**
 * Chapter 3's rule and approver, and, as the profile says, the person's own rules (their deny and
 * ask beside the write rule, where the merge lets a deny win) and `[y/N/a]` in front of the
 * approver: a personal allow, then a grant of this run, then the person.
 */
export function terminalAnswers(
  profile: ChapterProfile,
  deps: AgentDependencies,
  approver: ApprovalProvider,
  personal: PersonalRules,
): { readonly rules: PermissionRule[]; readonly approval: ApprovalProvider } {
  // The person's own first: where theirs and the profile's both ask, the prompt gives their reason.
  const rules = [...personal.policyRules(), CONFIRM_FILE_WRITE, CONFIRM_EXTERNAL_CALL];
  const prompt = deps.runAnswers?.prompt;
  switch (profile.answers) {
    case "once":
      return { rules, approval: approver };
    case "once-or-run": {
      const bound = deps.runAnswers?.boundScript;
      const grants = new RunGrants({
        workspace: deps.workspace,
        ...(bound === undefined
          ? {}
          : {
              boundScript: (request) => {
                const command = request.call.arguments.command;
                return typeof command === "string" ? bound(command) : undefined;
              },
            }),
        ...(deps.runAnswers?.observer === undefined ? {} : { observer: deps.runAnswers.observer }),
        ...(deps.runAnswers?.restoredGrants === undefined
          ? {}
          : {
              restored: deps.runAnswers.restoredGrants.grants,
              issued: deps.runAnswers.restoredGrants.issued,
            }),
      });
      deps.runAnswers?.onGrants?.(grants);
      return {
        rules,
        approval: new DailyApprover({
          prompt: prompt ?? runPromptOf(approver),
          grants,
          rules: personal,
          ...(deps.executionEnvironment === undefined
            ? {}
            : { executionEnvironment: deps.executionEnvironment }),
        }),
      };
    }
  }
}

/**
 * The approver as a `[y/N/a]` prompt: the terminal's can say `a`; any other answers for this call
 * only.
 */
function runPromptOf(approver: ApprovalProvider): RunApprovalPrompt {
  const candidate = approver as Partial<RunApprovalPrompt>;
  const decideOnce =
    typeof candidate.decideOnce === "function"
      ? candidate.decideOnce.bind(approver)
      : (request: PermissionRequest) => approver.decide(request);
  if (typeof candidate.decideForRun === "function") {
    return { decideForRun: candidate.decideForRun.bind(approver), decideOnce };
  }
  return {
    decideForRun: async (request: PermissionRequest): Promise<RunApprovalAnswer> => ({
      decision: await approver.decide(request),
      forRun: false,
    }),
    decideOnce,
  };
}
