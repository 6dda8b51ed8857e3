/**
 * The policy for `run_command`: only an exact argv from the allowlist, only with the network off
 * and (on the P04 path) only in the sandbox, and even then a person is asked, with the script npm
 * would run bound into the request's digest.
 */
import { environmentLabel } from "../policy/execution-environment.js";
import { boundScript, commandDigest } from "./command-binding.js";
import { isP04Context, type P04Context, type PolicyContext } from "./policy-context.js";
import { deny, P04_DENIALS, type ExplainedDecision } from "./policy-decision.js";
import { commandArgv, sameArgv } from "./run-command-input.js";

/**
 * Said with every command request: a program on the allowlist is not thereby safe. The person
 * approves what the scripts do, and only the sandbox limits it.
 */
export function commandRisks(argv: readonly string[]): readonly string[] {
  // Named as allowlisted (`python3`, `npm`): any of them runs whatever code it is given.
  const program = argv[0] ?? "the program";
  return Object.freeze([
    `${program} runs arbitrary code: the program being on the allowlist is not a safety boundary; what the code it runs does is what you approve`,
    "it can create, change or delete any file in the workspace (not its git metadata nor the harness's own files; a new git repository it makes, whose config and hooks git runs there, is reported after it)",
  ]);
}

/** How long a request made under a bare seed context may wait (P04 passes its own). */
export const SEED_REQUEST_TTL_MS = 15 * 60 * 1000;

export function authorizeCommand(
  input: Readonly<Record<string, unknown>>,
  context: PolicyContext | P04Context,
): ExplainedDecision {
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
  const { script, rows } = bound;
  const digest = commandDigest(input, where, script);
  return {
    type: "ask",
    why: "The command is on the allowlist; a person still approves each run (the allowlist is not a safety boundary)",
    request: {
      id: where.newRequestId(),
      actionDigest: digest,
      summary: `run_command ${JSON.stringify(argv)} in ${context.cwd} · effect execute · ${environmentLabel(where.sandbox)}`,
      // Apart from the summary: script text is shown in a block of its own, never as a row.
      ...(rows === undefined ? {} : { scriptRows: rows }),
      risks: commandRisks(argv),
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
