import { deepFreeze } from "../common/deep-freeze.js";
import type { ToolCall } from "../ports/messages.js";
import type { FinalArguments, ToolEffect } from "./tool-definition.js";

/**
 * A tool call that passed lookup, JSON parsing and its strict schema. Only the registry creates one,
 * so a permission request cannot be made for a call that was never validated.
 */
export class PreparedToolCall {
  readonly #brand = true;
  readonly callId: string;
  readonly toolName: string;
  readonly effect: ToolEffect;
  /** The schema's output: defaults applied, unknown keys rejected. Deep-frozen. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The JSON text the model sent, kept so `invoke` can validate again from the source. */
  readonly rawArguments: string;
  /** What the harness adds (cwd, timeout, shell), for the audit trail; not the model's to set. */
  readonly finalArguments: FinalArguments | undefined;

  /** @internal Use `ToolRegistry.prepare`. */
  constructor(
    call: ToolCall,
    effect: ToolEffect,
    validatedArguments: Readonly<Record<string, unknown>>,
    finalArguments?: FinalArguments,
  ) {
    this.callId = call.id;
    this.toolName = call.name;
    this.effect = effect;
    this.arguments = deepFreeze(validatedArguments);
    this.rawArguments = call.arguments;
    this.finalArguments =
      finalArguments === undefined ? undefined : deepFreeze({ ...finalArguments });
    Object.freeze(this);
  }

  /** True only for objects this class constructed; a look-alike object or prototype trick fails. */
  static isPrepared(value: unknown): value is PreparedToolCall {
    return typeof value === "object" && value !== null && #brand in value;
  }
}
