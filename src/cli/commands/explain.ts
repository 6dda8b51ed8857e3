/**
 * `agent explain TOOL 'JSON' [run options]`: one call through prepare and the policy of a profile,
 * with the approver and the audit replaced by recorders and nothing executed. It takes the run
 * options that decide a call (`EXECUTION_FLAGS`) and resolves them as a run does. It prints each
 * boundary's verdict in order, then the decision and the audit line that would result (each
 * answer the prompt takes, when a person would be asked). The walk-through in docs/tool-path.md
 * is generated from it.
 */
import { rejected } from "../../core/journal/call-facts.js";
import { withOutcomeNote } from "../../core/runner/outcome-note.js";
import type { ToolResult } from "../../core/tools/tool-result.js";
import {
  CallCannotSucceedError,
  failIfCannotSucceed,
} from "../../core/tools/call-cannot-succeed.js";
import {
  composeExplain,
  type ExecutionSettings,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_RESOURCE_LIMITS,
} from "../../bootstrap.js";
import type { ApprovalProvider } from "../../core/policy/approval.js";
import type { AuditSink } from "../../core/policy/audit.js";
import { PermissionDecision } from "../../core/policy/permission-decision.js";
import { PermissionRequest } from "../../core/policy/permission-request.js";
import type { PolicyTrace } from "../../core/policy/permissions.js";
import type { RunApprovalAnswer, RunApprovalPrompt } from "../../core/policy/run-grants.js";
import { keepsAudit, LATEST_CHAPTER, type ChapterProfile } from "../../core/profiles.js";
import type { CliIo } from "../cli-io.js";
import { resolveSettings } from "../settings/resolve-settings.js";
import { EXECUTION_FLAGS, executionSettings } from "../settings/run-settings.js";
import { resolveWorkspace } from "../settings/workspace.js";
import { EXIT } from "../exit-codes.js";
import { guarded, parseRunOptionArgs } from "../subcommand-args.js";
import { answerDecision } from "../terminal/approval/terminal-approval.js";
import { formatAuditLine } from "../terminal/approval/terminal-audit.js";
import { escapeForPrompt } from "../terminal/render/terminal-text.js";

export function explainCommand(args: readonly string[], io: CliIo): Promise<number> {
  return guarded(io, async () => {
    // The run options that decide a call, parsed as a run parses them; any other is refused.
    const { flags, positionals } = parseRunOptionArgs("explain", args, EXECUTION_FLAGS);
    const [tool, json, ...rest] = positionals;
    if (tool === undefined || json === undefined || rest.length > 0) {
      throw new Error(
        "usage: agent explain TOOL 'JSON' [--chapter N | --profile daily] [--sandbox MODE] [--workspace DIR]",
      );
    }
    // The settings a run with these flags would have: the environment and the settings file
    // decide the rest (its profile, sandbox, network) exactly as for the run.
    const { options, env } = resolveSettings(flags, io);
    const host = { env, platform: io.platform };
    const workspace = resolveWorkspace(options.workspace);
    const lines = await explainCall({
      tool,
      json,
      execution: executionSettings(options, host, workspace),
    });
    io.stdout.write(`${lines.map((line) => escapeForPrompt(line)).join("\n")}\n`);
    return EXIT.ok;
  });
}

export interface ExplainInput {
  readonly tool: string;
  readonly json: string;
  /** What the run would be (run-settings.ts): its profile, workspace (real path), sandbox, … */
  readonly execution: ExecutionSettings;
}

/**
 * A dry run's settings when nothing but these is given: a run's defaults (the sandbox `auto`, no
 * network), as `agent explain --chapter N` with no environment or settings file decides them.
 */
export function plainExplainSettings(input: {
  readonly profile: ChapterProfile;
  readonly workspace: string;
  readonly host: ExecutionSettings["host"];
  readonly auditLog?: string;
  readonly stateDir?: string;
}): ExecutionSettings {
  return {
    profile: input.profile,
    workspace: input.workspace,
    host: input.host,
    sandbox: "auto",
    network: false,
    shell: "auto",
    passEnv: [],
    sandboxUnmask: [],
    sandboxLimits: DEFAULT_RESOURCE_LIMITS,
    commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS,
    auditLog: input.auditLog,
    stateDir: input.stateDir,
  };
}

/** The dry run's lines, without a trailing newline. */
export async function explainCall(input: ExplainInput): Promise<string[]> {
  const { tool, json } = input;
  const profile = input.execution.profile;
  const toolPathFor = await composeExplain({
    ...input.execution,
    // A profile that keeps no audit cannot be run with a log (args.ts): none to protect.
    auditLog: keepsAudit(profile) ? input.execution.auditLog : undefined,
  });
  const build = (answer: Answer, audit: AuditSink) => {
    const approver = new AnswerRecorder(answer);
    return { ...toolPathFor(approver, audit), approver };
  };

  const lines: string[] = [`$ agent explain ${tool} '${json}'${profileFlag(profile)}`];
  const first = build("y", new LineRecorder());
  const snapshot = first.registry.snapshot();
  const prepared = snapshot.prepare({ id: "explain_1", name: tool, arguments: json });
  if (!prepared.ok) return refusedBeforePolicy(lines, prepared.result, profile);
  const call = prepared.call;
  lines.push(
    `prepare: ok · ${call.toolName} (effect ${call.effect}) ${JSON.stringify(call.arguments)}`,
  );
  const trace = new TraceRecorder();
  const auditY = new LineRecorder();
  const yes = build("y", auditY);
  // A call that cannot succeed (an edit whose old_string occurs twice) is put to nobody, as in
  // the run: the policy runs the tool's precheck just before it would ask.
  const beforeAsking = () => failIfCannotSucceed(snapshot, call);
  let decidedYes: PermissionDecision;
  try {
    decidedYes = await yes.policy.decide(new PermissionRequest(call, {}, { beforeAsking }), trace);
  } catch (error) {
    if (!(error instanceof CallCannotSucceedError)) throw error;
    return cannotSucceed([...lines, ...trace.lines], error.result, profile);
  }
  lines.push(...trace.lines);
  if (yes.approver.asked === 0) {
    // An ask answered before the person is (a personal allow rule): the approval stage says so.
    lines.push(
      trace.merge?.behavior === "ask"
        ? `approval: answered without asking the person: ${describe(decidedYes)}`
        : "approval: not asked",
    );
    lines.push(`decision: ${describe(decidedYes)}`);
    lines.push(auditLine(auditY, profile));
  } else {
    const { notForRun, note } = yes.approver;
    lines.push(
      notForRun === undefined
        ? approvalLine(profile)
        : `approval: the person is asked [y/N] (no a here: ${notForRun})`,
    );
    if (note !== undefined) lines.push(`note: ${note}`);
    lines.push(...answered("y", decidedYes, auditY, profile));
    // `a` where the profile's prompt takes it, through the run's own path for it.
    if (profile.answers === "once-or-run" && notForRun === undefined) {
      const auditA = new LineRecorder();
      const decidedA = await build("a", auditA).policy.decide(new PermissionRequest(call));
      lines.push(...answered("a", decidedA, auditA, profile));
    }
    const auditN = new LineRecorder();
    const decidedNo = await build("n", auditN).policy.decide(new PermissionRequest(call));
    lines.push(...answered("otherwise", decidedNo, auditN, profile));
  }
  lines.push("nothing was executed");
  return lines;
}

/** The decision and audit line after one answer: `decision on y: …`, `audit on y: …`. */
function answered(
  answer: "y" | "a" | "otherwise",
  decision: PermissionDecision,
  audit: LineRecorder,
  profile: ChapterProfile,
): string[] {
  const on = answer === "otherwise" ? answer : `on ${answer}`;
  return [
    `decision ${on}: ${describe(decision)}`,
    auditLine(audit, profile).replace(/^audit:/, `audit ${on}:`),
  ];
}

/** The flag that chooses the profile, as the person would give it; none for the default chapter. */
function profileFlag(profile: ChapterProfile): string {
  if (profile.name !== undefined) return ` --profile ${profile.name}`;
  return profile.chapter === LATEST_CHAPTER ? "" : ` --chapter ${String(profile.chapter)}`;
}

/** Who answers an ask, and with what prompt, as the profile's approvals and answers say. */
function approvalLine(profile: ChapterProfile): string {
  switch (profile.approvals) {
    case "grants":
      return "approval: a grant for exactly this action is looked for; without one a person at a terminal answers [y/N], and with nobody there the run waits (exit 3)";
    case "terminal":
      switch (profile.answers) {
        case "once":
          return "approval: the person is asked [y/N]";
        case "once-or-run":
          return "approval: the person is asked [y/N/a] (a: this exact action, for the rest of this run)";
      }
  }
}

function refusedBeforePolicy(
  lines: string[],
  result: ToolResult,
  profile: ChapterProfile,
): string[] {
  lines.push(`prepare: ${asTheModelReadsIt(result, profile)}`);
  lines.push("the call is refused before the policy; nothing was executed");
  return lines;
}

function cannotSucceed(lines: string[], result: ToolResult, profile: ChapterProfile): string[] {
  lines.push(`approval: not asked, the call cannot succeed: ${asTheModelReadsIt(result, profile)}`);
  lines.push("audit: none (no decision is made for a call that cannot succeed)");
  lines.push("nothing was executed");
  return lines;
}

/**
 * A call refused before any decision, as the model would read it: with the profile's outcome
 * note, as the run adds it. Such a refusal is no denial, so the note only says that nothing ran.
 */
function asTheModelReadsIt(result: ToolResult, profile: ChapterProfile): string {
  return profile.outcomeNotes ? withOutcomeNote(result, rejected(result)).content : result.content;
}

function describe(decision: PermissionDecision): string {
  return `${decision.behavior} (${decision.source}) - ${decision.reason}`;
}

function auditLine(audit: LineRecorder, profile: ChapterProfile): string {
  if (!keepsAudit(profile)) return "audit: none (chapters 1 and 2 keep no audit)";
  return `audit: ${audit.lines.join(" / ")}`;
}

class TraceRecorder implements PolicyTrace {
  readonly lines: string[] = [];
  merge: PermissionDecision | undefined;

  stage(name: string, decisions: readonly PermissionDecision[]): void {
    const verdicts = decisions.length === 0 ? "—" : decisions.map(describe).join("; ");
    this.lines.push(`${name}: ${verdicts}`);
  }

  merged(decision: PermissionDecision): void {
    this.merge = decision;
    this.lines.push(`merge: ${describe(decision)}`);
  }
}

/** The person's answer: `y`, `a` (this exact action for the rest of the run) or anything else. */
type Answer = "y" | "a" | "n";

/**
 * Stands in for the person: answers as told, and counts the questions. It takes `[y/N/a]` as the
 * terminal's prompt does, so a profile that offers `a` reaches it through the run's own path.
 */
class AnswerRecorder implements ApprovalProvider, RunApprovalPrompt {
  asked = 0;
  /** Why `a` was not offered, when the question was `[y/N]` where it could have been. */
  notForRun: string | undefined;
  /** The line said above `[y/N/a]` (an allow rule that does not cover the file, say). */
  note: string | undefined;
  readonly #answer: Answer;

  constructor(answer: Answer) {
    this.#answer = answer;
  }

  async decide(): Promise<PermissionDecision> {
    return (await this.decideForRun()).decision;
  }

  decideForRun(_request?: PermissionRequest, note?: string): Promise<RunApprovalAnswer> {
    this.asked += 1;
    this.note = note;
    return Promise.resolve(answerDecision(this.#answer));
  }

  /** `[y/N]`: an `a` there is no `y`, as at the terminal. */
  decideOnce(_request: PermissionRequest, whyNotForRun: string): Promise<PermissionDecision> {
    this.asked += 1;
    this.notForRun = whyNotForRun;
    return Promise.resolve(answerDecision(this.#answer === "a" ? "n" : this.#answer).decision);
  }
}

/** Stands in for the audit: keeps the terminal's `[Permission]` line and writes nothing. */
class LineRecorder implements AuditSink {
  readonly lines: string[] = [];

  record(request: PermissionRequest, decision: PermissionDecision): void {
    this.lines.push(formatAuditLine(request, decision));
  }
}
