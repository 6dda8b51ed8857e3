/**
 * What the policy sees besides the call: the seed's `PolicyContext`, and what the P04 path adds
 * to it (`P04Context`).
 */
import type { ExecutionEnvironmentStatus } from "../policy/execution-environment.js";
import type { LoadedLaterProbes } from "../policy/write-loaded-later.js";
import type { PathClassifier } from "./workspace-path-policy.js";

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
export interface P04Context extends PolicyContext, LoadedLaterProbes {
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
   * Either one text or its rows, one for each thing run (shown apart in the request, bound as
   * the rows joined by ` · `).
   */
  readonly scriptOf?: (argv: readonly string[]) => string | readonly string[] | undefined;
  /**
   * The tools of the person's MCP servers this run lists, by registered name: whatever effect a
   * server claims, each is decided as an external action (authorize-external.ts).
   */
  readonly externalTools?: ReadonlyMap<string, ExternalToolFacts>;
}

/** One MCP tool as the policy sees it: whose it is, and whether the allowlist names it. */
export interface ExternalToolFacts {
  readonly server: string;
  /** The tool's name on its server. */
  readonly tool: string;
  /** The settings file's allowlist names this server and tool. */
  readonly allowed: boolean;
}

export function isP04Context(context: PolicyContext | P04Context): context is P04Context {
  return "sandbox" in context;
}
