import type { z } from "zod";
import type { ValueShape } from "../common/value-shape.js";
import type { WriteRecorder } from "../ports/filesystem.js";
import type { ToolResult } from "./tool-result.js";

/**
 * What a tool does to the world; permissions default by effect, never by name. `external` reaches
 * outside the machine (the network, another service): P04 declares one and always denies it.
 */
export const TOOL_EFFECTS = ["read", "write", "execute", "external"] as const;
export type ToolEffect = (typeof TOOL_EFFECTS)[number];

/**
 * What a handler is given besides its arguments (the tutorial's chapter-3 `ToolContext`). The
 * workspace and the identity are the run's, never the model's.
 */
export interface ToolContext {
  readonly callId: string;
  readonly signal?: AbortSignal;
  /** Real path of the workspace every path of this call is relative to. */
  readonly workspace?: string;
  /** Who the call runs for: the run it belongs to (its journal id, when there is one). */
  readonly identity?: ToolIdentity;
  /**
   * The external operation id the journal reserved for this call before it started (seed 004):
   * a tool with a remote effect passes it to the service as its idempotency key, so a resumed run
   * can ask that service what became of the call, or compensate it, instead of repeating it.
   */
  readonly idempotencyKey?: string;
  /**
   * A person approved this very call at a prompt. Absent when a rule, an earlier "for this run"
   * or no question at all let it run: nobody read these words this time (a command tool's
   * sandbox may then hold more back: ChapterProfile's `loadedLaterToCommands`).
   */
  readonly personApproved?: boolean;
  /** A tool that ran a process tells the loop what happened, for the call's outcome record. */
  readonly reportExecution?: (facts: ExecutionFacts) => void;
  /** A tool that started a process gives its id, for the journal's recovery record. */
  readonly reportProcess?: (pid: number) => void;
  /**
   * Where a tool that keeps before-images (`ToolDefinition.beforeImages`) reports each write,
   * before and after it lands, so `/undo` can take it back; absent without a journal.
   */
  readonly recordWrite?: WriteRecorder;
}

export interface ToolIdentity {
  /** The run's id where a journal names it; absent for a run that lives in memory only. */
  readonly runId?: string;
  /** The chapter profile the run was built for, e.g. `P04`. */
  readonly profile?: string;
}

/**
 * What the harness itself decides about a call, beyond the model's arguments: the working
 * directory, the timeout, the shell. Recorded in the audit trail as the call will be executed.
 */
export type FinalArguments = Readonly<Record<string, string | number | boolean>>;

/** What a tool that ran something reports beyond its result text. */
export interface ExecutionFacts {
  readonly exitCode?: number;
  /** Where the whole output was saved, workspace-relative (`.agent/outputs/<call-id>.log`). */
  readonly savedOutput?: string;
  /**
   * The external operation id the call was sent under (its `idempotencyKey`), reported by a tool
   * that reached another service, so the audit's outcome line names it beside the journal's.
   */
  readonly operationId?: string;
  /**
   * The sandbox's notes about a command (a limit it hit, a file it saw made), each whole: shown
   * to the person under the call's line. Display only: not part of the outcome, so the audit
   * log, the journal and a script's JSON keep their shape (the result's text holds them already).
   */
  readonly notes?: readonly string[];
}

/** Tool schemas must be strict objects so the model cannot smuggle in unvalidated fields. */
export type ToolSchema = z.ZodObject<z.ZodRawShape, z.core.$strict>;

export interface ToolDefinition<Schema extends ToolSchema = ToolSchema> {
  readonly name: string;
  readonly description: string;
  readonly effect: ToolEffect;
  /**
   * May be a getter that builds the schema at its first use: zod then loads after start-up, once
   * a call needs it (the builtin tools do this, see tool-parameters.generated.ts).
   */
  readonly schema: Schema;
  /**
   * The schema's JSON Schema (input side, no `$schema`), worked out ahead of time so that
   * listing the tool for the model does not build the schema; absent, it is computed from
   * `schema`. tests/features/tool-parameters.test.ts checks the builtin tools' against theirs.
   */
  readonly parameters?: Readonly<Record<string, unknown>>;
  /**
   * The schema as data (a strict object), written from it ahead of time: a call whose arguments
   * it vouches for (src/core/common/vouch.ts) is checked without reading `schema`, so a run whose
   * calls are all valid never loads zod; any other call is zod's, refused with zod's message.
   * tests/features/tool-parameters.test.ts checks the builtin tools' against their schemas.
   */
  readonly argumentShape?: ValueShape;
  readonly handler: (args: z.output<Schema>, context: ToolContext) => Promise<ToolResult>;
  /**
   * A call that cannot succeed, found without side effects before anyone is asked about it (an
   * edit whose old_string occurs four times): its error result, or `undefined` to go on. Absent,
   * or throwing: go on. It judges the call's own text, never where it may write (the policy's).
   */
  readonly precheck?: (args: z.output<Schema>) => Promise<ToolResult | undefined>;
  /** The call's final arguments as executed (see `FinalArguments`); absent: only the model's. */
  readonly finalArguments?: (args: z.output<Schema>) => FinalArguments;
  /**
   * The tool acts on another service (an MCP server's tool): whatever its effect says, a call
   * that started and never finished is never run again by a recovery, only reported unknown.
   */
  readonly remote?: true;
  /**
   * Every file the tool changes goes through `ToolContext.recordWrite` first: a call of it that
   * recorded no write changed no file, and `/undo` can take back the ones it recorded. Without
   * it, `/undo` says the call's effects cannot be undone.
   */
  readonly beforeImages?: true;
}

/** Keeps the schema's type attached to the handler's arguments at the definition site. */
export function defineTool<Schema extends ToolSchema>(
  definition: ToolDefinition<Schema>,
): ToolDefinition<Schema> {
  return definition;
}

/**
 * A local read: running it changes nothing outside the harness (an MCP tool's read is remote).
 * Its journal records need not each wait for their own flush (docs/run-journal.md); the registry
 * asks it by tool name, the journal by prepared call: one rule for both.
 */
export function changesNothing(tool: {
  readonly effect: ToolEffect;
  readonly remote?: boolean;
}): boolean {
  return tool.effect === "read" && tool.remote !== true;
}
