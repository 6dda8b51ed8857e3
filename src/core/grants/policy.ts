/**
 * The P04 policy, as the second seed writes it: default deny. It sees a prepared (schema-parsed)
 * call and a context, and answers `allow {scope}`, `deny {reason}` or `ask {request}`. Pure: the
 * caller supplies the clock, the request ids and where commands would run.
 */
import { actionDigest, type ApprovalRequest } from "./approval-request.js";
import type { ExecutionEnvironmentStatus } from "../policy/execution-environment.js";
import { environmentLabel } from "../policy/execution-environment.js";
import { firstLineOfError } from "../common/one-line.js";
import type { PreparedToolCall } from "../tools/prepared-tool-call.js";
import { UnbindableCommandError } from "./unbindable-command.js";

export const RUN_COMMAND = "run_command";

export interface P04Context {
  /** Real path of the directory commands run in (the workspace root). */
  readonly cwd: string;
  readonly realWorkspaceRoot: string;
  /** Exact argv lists a person may approve; nothing else is even asked about. */
  readonly allowedArgv: readonly (readonly string[])[];
  readonly network: "disabled" | "enabled";
  /** Where an approved command would run; anything but an isolated sandbox refuses it. */
  readonly sandbox: ExecutionEnvironmentStatus;
  /** Milliseconds since the epoch, for the request's expiry. */
  readonly now: number;
  /** How long a request may wait for its answer. */
  readonly requestTtlMs: number;
  readonly newRequestId: () => string;
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
  invalidCommandInput: "invalid_command_input",
  argvNotAllowed: "argv_not_allowed",
  networkOrExternal: "network_or_external_effect_not_allowed",
  sandboxUnavailable: "sandbox_unavailable",
  noMatchingPolicy: "no_matching_policy",
  scriptUnreadable: "script_unreadable",
  commandUnbindable: "command_unbindable",
});
export type P04DenialCode = (typeof P04_DENIALS)[keyof typeof P04_DENIALS];

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

export function authorizeP04(call: PreparedToolCall, context: P04Context): P04Decision {
  if (call.effect === "external") {
    return deny(
      P04_DENIALS.networkOrExternal,
      `${call.toolName} reaches outside this machine; P04 never allows an external effect`,
    );
  }
  if (call.toolName === RUN_COMMAND) return authorizeCommand(call, context);
  switch (call.effect) {
    case "read":
      return { behavior: "allow", scope: `read inside the workspace ${context.realWorkspaceRoot}` };
    case "write":
      // The workspace boundary has already denied any path outside it or a protected one.
      return {
        behavior: "allow",
        scope: `write inside the workspace ${context.realWorkspaceRoot}`,
      };
    case "execute":
      return deny(P04_DENIALS.noMatchingPolicy, `no P04 policy allows ${call.toolName}`);
  }
}

function authorizeCommand(call: PreparedToolCall, context: P04Context): P04Decision {
  const argv = commandArgv(call.arguments);
  if (argv === undefined) {
    return deny(
      P04_DENIALS.invalidCommandInput,
      "run_command takes {command, args[]}: a program name without spaces or NUL and string arguments",
    );
  }
  if (context.network !== "disabled") {
    return deny(
      P04_DENIALS.networkOrExternal,
      "commands run only with the network disabled; run without --network",
    );
  }
  if (context.sandbox.kind !== "isolated") {
    return deny(
      P04_DENIALS.sandboxUnavailable,
      `commands run only in the sandbox, and there is none (${environmentLabel(context.sandbox)})`,
    );
  }
  if (!context.allowedArgv.some((allowed) => sameArgv(allowed, argv))) {
    return deny(
      P04_DENIALS.argvNotAllowed,
      `${JSON.stringify(argv)} is not exactly on the allowlist (see agent commands)`,
    );
  }
  const sandbox = context.sandbox.label;
  const bound = boundScript(argv, context);
  if (bound.behavior === "deny") return bound;
  const { script } = bound;
  const digest = commandDigest(call.arguments, context, script);
  return {
    behavior: "ask",
    request: {
      id: context.newRequestId(),
      actionDigest: digest,
      summary: `run_command ${JSON.stringify(argv)} in ${context.cwd} · effect execute · ${sandbox}${script === undefined ? "" : ` · ${script}`}`,
      risks: COMMAND_RISKS,
      expiresAt: new Date(context.now + context.requestTtlMs).toISOString(),
    },
  };
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

function deny(reason: P04DenialCode, detail: string): P04Decision {
  return { behavior: "deny", reason, detail };
}
