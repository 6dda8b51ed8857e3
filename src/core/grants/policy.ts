/**
 * The P04 policy, as the second seed writes it: default deny. `authorize(tool, input, context)`
 * sees a tool, its prepared (schema-parsed) input and a context, and answers `allow {scope}`,
 * `deny {reason}` or `ask {request}`, under the seed's own names. Pure: the caller supplies the
 * clock, the request ids, where commands would run and how paths resolve on the disk. The P04
 * path (`P04Authorizer`) calls this same function with a `P04Context`.
 */
import { actionDigest, type ApprovalRequest } from "./approval-request.js";
import type { ExecutionEnvironmentStatus } from "../policy/execution-environment.js";
import { environmentLabel } from "../policy/execution-environment.js";
import { firstLineOfError } from "../common/one-line.js";
import type { PreparedToolCall } from "../tools/prepared-tool-call.js";
import type { RegisteredTool } from "../tools/registered-tool.js";
import { UnbindableCommandError } from "./unbindable-command.js";
import { workspacePathVerdict, type PathClassifier } from "./workspace-path-policy.js";

export type { ApprovalRequest } from "./approval-request.js";
export type { RegisteredTool } from "../tools/registered-tool.js";

export const RUN_COMMAND = "run_command";

/** The seed's context: where the action would run, what may be asked about, and the network. */
export interface PolicyContext {
  /** Real path of the directory commands run in (the workspace root). */
  readonly cwd: string;
  readonly realWorkspaceRoot: string;
  /** Exact argv lists a person may approve; nothing else is even asked about. */
  readonly allowedArgv: readonly (readonly string[])[];
  readonly network: "disabled" | "enabled";
}

/**
 * What the harness adds to the seed's context on the P04 path. A bare `PolicyContext` is the
 * seed's policy alone (names checked, no sandbox stated); the P04 path always passes all of this.
 */
export interface P04Context extends PolicyContext {
  /** Where an approved command would run; anything but an isolated sandbox refuses it. */
  readonly sandbox: ExecutionEnvironmentStatus;
  /** Milliseconds since the epoch, for the request's expiry. */
  readonly now: number;
  /** How long a request may wait for its answer. */
  readonly requestTtlMs: number;
  readonly newRequestId: () => string;
  /**
   * Where a read's or a write's path lands on the disk, links followed, as the file tools will
   * resolve it (the adapter's boundary); a throw denies.
   */
  readonly classifyPath: PathClassifier;
  /**
   * What npm runs for an allowed argv (its script, the scripts around it, the workspace's
   * `.npmrc`), read now and said in words; undefined when it runs no script. It throws when what
   * npm would run cannot be said (a link npm would follow, a FIFO, …): the command is then denied
   * (`script_unreadable`), since a digest without the script would match whatever npm ran; and
   * an UnbindableCommandError for a form whose code cannot be bound at all (`command_unbindable`).
   */
  readonly scriptOf?: (argv: readonly string[]) => string | undefined;
}

export const P04_DENIALS = Object.freeze({
  pathOutsideWorkspace: "path_outside_workspace",
  protectedPath: "protected_path",
  invalidCommandInput: "invalid_command_input",
  argvNotAllowed: "argv_not_allowed",
  networkOrExternal: "network_or_external_effect_not_allowed",
  sandboxUnavailable: "sandbox_unavailable",
  noMatchingPolicy: "no_matching_policy",
  scriptUnreadable: "script_unreadable",
  commandUnbindable: "command_unbindable",
});
export type P04DenialCode = (typeof P04_DENIALS)[keyof typeof P04_DENIALS];

/**
 * The seed's decision. A denial also says, in words, why (`detail`) and what it covers (`scope`):
 * the model and the audit hear source, reason and scope of every denial.
 */
export type PolicyDecision =
  | { readonly type: "allow"; readonly scope: string }
  | {
      readonly type: "deny";
      readonly reason: P04DenialCode;
      readonly detail: string;
      readonly scope: string;
    }
  | { readonly type: "ask"; readonly request: ApprovalRequest };

/** The same decision in the harness's words (`behavior`), kept for the P04 path's callers. */
export type P04Decision =
  | { readonly behavior: "allow"; readonly scope: string }
  | { readonly behavior: "deny"; readonly reason: P04DenialCode; readonly detail: string }
  | { readonly behavior: "ask"; readonly request: ApprovalRequest };

/**
 * Said with every command request: a program on the allowlist is not thereby safe. The person
 * approves what the scripts do, and only the sandbox limits it.
 */
export const COMMAND_RISKS = Object.freeze([
  "npm and node run arbitrary code: the program being on the allowlist is not a safety boundary; what the script does is what you approve",
  "it can create, change or delete any file in the workspace (not its git metadata nor the harness's own files)",
]);

/** How long a request made under a bare seed context may wait (P04 passes its own). */
export const SEED_REQUEST_TTL_MS = 15 * 60 * 1000;

/** The tool as the policy needs it: a `RegisteredTool`, or a prepared call's name and effect. */
export type AuthorizedTool = Pick<RegisteredTool, "name" | "effect">;

export function authorize(
  tool: AuthorizedTool,
  input: Readonly<Record<string, unknown>>,
  context: PolicyContext | P04Context,
): PolicyDecision {
  if (tool.effect === "external") {
    return deny(
      P04_DENIALS.networkOrExternal,
      `${tool.name} reaches outside this machine; P04 never allows an external effect`,
      `every ${tool.name} call`,
    );
  }
  if (tool.name === RUN_COMMAND) return authorizeCommand(input, context);
  switch (tool.effect) {
    case "read":
    case "write":
      return authorizeWorkspacePath(tool.name, tool.effect, input, context);
    case "execute":
      return deny(
        P04_DENIALS.noMatchingPolicy,
        `no P04 policy allows ${tool.name}`,
        `every ${tool.name} call`,
      );
  }
}

/** `authorize` for a call the registry prepared, in the harness's words. */
export function authorizeP04(call: PreparedToolCall, context: P04Context): P04Decision {
  const decision = authorize({ name: call.toolName, effect: call.effect }, call.arguments, context);
  switch (decision.type) {
    case "allow":
      return { behavior: "allow", scope: decision.scope };
    case "deny":
      return { behavior: "deny", reason: decision.reason, detail: decision.detail };
    case "ask":
      return { behavior: "ask", request: decision.request };
  }
}

/**
 * Reads and writes by where their path lands. A tool without a `path` (glob's pattern) is
 * confined by the tool itself and allowed for the workspace as a whole.
 */
function authorizeWorkspacePath(
  toolName: string,
  effect: "read" | "write",
  input: Readonly<Record<string, unknown>>,
  context: PolicyContext | P04Context,
): PolicyDecision {
  const inside: PolicyDecision = {
    type: "allow",
    scope: `${effect} inside the workspace ${context.realWorkspaceRoot}`,
  };
  if (!Object.hasOwn(input, "path")) return inside;
  const path = input.path;
  const scope = `${effect} of ${JSON.stringify(path)} by ${toolName}`;
  if (typeof path !== "string") {
    return deny(P04_DENIALS.pathOutsideWorkspace, "the path is not a string", scope);
  }
  const classify = isP04Context(context) ? context.classifyPath : undefined;
  const verdict = workspacePathVerdict(effect, path, classify);
  switch (verdict.target) {
    case "inside":
      return verdict.checked === "on disk"
        ? inside
        : { type: "allow", scope: `${effect} of ${JSON.stringify(path)}, checked by name` };
    case "outside":
      return deny(P04_DENIALS.pathOutsideWorkspace, verdict.detail, scope);
    case "protected":
      return deny(P04_DENIALS.protectedPath, verdict.detail, scope);
  }
}

function authorizeCommand(
  input: Readonly<Record<string, unknown>>,
  context: PolicyContext | P04Context,
): PolicyDecision {
  const argv = commandArgv(input);
  if (argv === undefined) {
    return deny(
      P04_DENIALS.invalidCommandInput,
      "run_command takes {command, args[]}: a program name without spaces or NUL and string arguments",
      "this run_command call",
    );
  }
  const scope = `run_command ${JSON.stringify(argv)} in ${context.cwd}`;
  if (context.network !== "disabled") {
    return deny(
      P04_DENIALS.networkOrExternal,
      "commands run only with the network disabled; run without --network",
      "every run_command call while the network is enabled",
    );
  }
  const p04 = isP04Context(context) ? context : undefined;
  if (p04 !== undefined && p04.sandbox.kind !== "isolated") {
    return deny(
      P04_DENIALS.sandboxUnavailable,
      `commands run only in the sandbox, and there is none (${environmentLabel(p04.sandbox)})`,
      "every run_command call while there is no sandbox",
    );
  }
  if (!context.allowedArgv.some((allowed) => sameArgv(allowed, argv))) {
    return deny(
      P04_DENIALS.argvNotAllowed,
      `${JSON.stringify(argv)} is not exactly on the allowlist (see agent commands)`,
      scope,
    );
  }
  const where = requestFacts(context);
  const bound = boundScript(argv, p04 ?? {});
  if (bound.behavior === "deny")
    return { type: "deny", reason: bound.reason, detail: bound.detail, scope };
  const { script } = bound;
  const digest = commandDigest(input, where, script);
  return {
    type: "ask",
    request: {
      id: where.newRequestId(),
      actionDigest: digest,
      summary: `run_command ${JSON.stringify(argv)} in ${context.cwd} · effect execute · ${environmentLabel(where.sandbox)}${script === undefined ? "" : ` · ${script}`}`,
      risks: COMMAND_RISKS,
      expiresAt: new Date(where.now + where.requestTtlMs).toISOString(),
    },
  };
}

/**
 * A bare seed context states no sandbox, clock or ids: a request made under it says so in its
 * digest and summary (no grant made under P04 can match it), expires after SEED_REQUEST_TTL_MS
 * and has a random id.
 */
function requestFacts(
  context: PolicyContext | P04Context,
): Pick<P04Context, "cwd" | "network" | "sandbox" | "now" | "requestTtlMs" | "newRequestId"> {
  if (isP04Context(context)) return context;
  return {
    cwd: context.cwd,
    network: context.network,
    sandbox: { kind: "host", label: "sandbox: not stated by the seed's policy context" },
    now: Date.now(),
    requestTtlMs: SEED_REQUEST_TTL_MS,
    newRequestId: randomRequestId,
  };
}

function randomRequestId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
  return `req_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

function isP04Context(context: PolicyContext | P04Context): context is P04Context {
  return "sandbox" in context;
}

/**
 * What npm will run for this argv, read now: the script in words (undefined: none), or the
 * denial when it cannot be said or bound.
 */
export function boundScript(
  argv: readonly string[],
  context: Pick<P04Context, "scriptOf">,
):
  | { readonly behavior: "bound"; readonly script: string | undefined }
  | Extract<P04Decision, { behavior: "deny" }> {
  try {
    return { behavior: "bound", script: context.scriptOf?.(argv) };
  } catch (error) {
    const reason =
      error instanceof UnbindableCommandError
        ? P04_DENIALS.commandUnbindable
        : P04_DENIALS.scriptUnreadable;
    return { behavior: "deny", reason, detail: firstLineOfError(error) };
  }
}

/** The digest of a run_command action: its input, where and how it runs, and its script. */
export function commandDigest(
  input: Readonly<Record<string, unknown>>,
  context: Pick<P04Context, "cwd" | "network" | "sandbox">,
  script: string | undefined,
): string {
  return actionDigest({
    profile: "P04",
    tool: RUN_COMMAND,
    input,
    cwd: context.cwd,
    network: context.network,
    sandbox: environmentLabel(context.sandbox),
    script: script ?? null,
  });
}

/** The argv a parsed `{command, args}` stands for; undefined unless it is exactly that shape. */
export function commandArgv(input: Readonly<Record<string, unknown>>): string[] | undefined {
  const { command, args } = input;
  const keys = Object.keys(input);
  if (keys.some((key) => key !== "command" && key !== "args")) return undefined;
  if (typeof command !== "string" || !/^[^\s\0/\\]+$/u.test(command)) return undefined;
  if (!Array.isArray(args)) return undefined;
  const strings: string[] = [];
  for (const arg of args as unknown[]) {
    if (typeof arg !== "string" || arg.includes("\0")) return undefined;
    strings.push(arg);
  }
  return [command, ...strings];
}

export function sameArgv(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((word, index) => word === right[index]);
}

function deny(reason: P04DenialCode, detail: string, scope: string): PolicyDecision {
  return { type: "deny", reason, detail, scope };
}
