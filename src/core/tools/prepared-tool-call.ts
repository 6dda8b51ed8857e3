import { deepFreeze } from "../common/deep-freeze.js";
import type { ToolCall } from "../ports/messages.js";
import type { FinalArguments, ToolContext, ToolEffect } from "./tool-definition.js";
import { toolError, type ToolResult } from "./tool-result.js";

/** What `execute(context)` is given: the run's context; the call's id is the call's own. */
export type ExecuteContext = Omit<ToolContext, "callId">;

/** Runs a prepared call's handler: the registry that prepared it (`ToolRegistrySnapshot.invoke`). */
export type PreparedExecutor = (
  call: PreparedToolCall,
  context: ExecuteContext,
) => Promise<ToolResult>;

/**
 * A tool call that passed lookup, JSON parsing and its strict schema. Only the registry creates one,
 * so a permission request cannot be made for a call that was never validated.
 *
 * It is also the second seed's `PreparedToolCall { input; execute(context) }`: `input` is the
 * parsed arguments the policy decides on (`authorize(tool, prepared.input, ctx)`), and
 * `execute(context)` runs the handler through the registry that prepared it, arguments parsed
 * again from the model's JSON.
 */
export class PreparedToolCall {
  readonly #brand = true;
  readonly #execute: PreparedExecutor | undefined;
  readonly callId: string;
  readonly toolName: string;
  readonly effect: ToolEffect;
  /** The schema's output: defaults applied, unknown keys rejected. Deep-frozen. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The JSON text the model sent, kept so `invoke` can validate again from the source. */
  readonly rawArguments: string;
  /** What the harness adds (cwd, timeout, shell), for the audit trail; not the model's to set. */
  readonly finalArguments: FinalArguments | undefined;
  /** The tool acts on another service (`ToolDefinition.remote`): never run again by a recovery. */
  readonly remote: boolean;
  /** Each write of the call is recorded before it lands (`ToolDefinition.beforeImages`). */
  readonly beforeImages: boolean;

  /** @internal Use `ToolRegistry.prepare`. */
  constructor(
    call: ToolCall,
    effect: ToolEffect,
    validatedArguments: Readonly<Record<string, unknown>>,
    finalArguments?: FinalArguments,
    execute?: PreparedExecutor,
    remote = false,
    beforeImages = false,
  ) {
    this.remote = remote;
    this.beforeImages = beforeImages;
    this.#execute = execute;
    this.callId = call.id;
    this.toolName = call.name;
    this.effect = effect;
    this.arguments = deepFreeze(validatedArguments);
    this.rawArguments = call.arguments;
    this.finalArguments =
      finalArguments === undefined ? undefined : deepFreeze({ ...finalArguments });
    Object.freeze(this);
  }

  /** The seed's `prepared.input`: the schema's output, what the policy decides on. */
  get input(): Readonly<Record<string, unknown>> {
    return this.arguments;
  }

  /**
   * The seed's `prepared.execute(context)`: the handler, run by the registry that prepared the
   * call. A call constructed by hand has no registry and runs nothing.
   */
  execute(context: ExecuteContext = {}): Promise<ToolResult> {
    if (this.#execute === undefined) {
      return Promise.resolve(
        toolError("unknown_tool", `Tool ${this.toolName} was not prepared by a registry`),
      );
    }
    return this.#execute(this, context);
  }

  /** True only for objects this class constructed; a look-alike object or prototype trick fails. */
  static isPrepared(value: unknown): value is PreparedToolCall {
    return typeof value === "object" && value !== null && #brand in value;
  }
}
