/**
 * The P04 policy, as the second seed writes it: default deny. `authorize(tool, input, context)`
 * sees a tool, its prepared (schema-parsed) input and a context, and answers `allow {scope}`,
 * `deny {reason}` or `ask {request}`, under the seed's own names. Pure: the caller supplies the
 * clock, the request ids, where commands would run and how paths resolve on the disk. The P04
 * path (`P04Authorizer`) calls this same function with a `P04Context`.
 *
 * This file holds the dispatch by tool and keeps the seed's names; each kind of call has its
 * policy beside it (authorize-path.ts, authorize-command.ts).
 */
import { authorizeCommand } from "./authorize-command.js";
import { authorizeExternal } from "./authorize-external.js";
import { authorizeWorkspacePath } from "./authorize-path.js";
import { isP04Context, type P04Context, type PolicyContext } from "./policy-context.js";
import {
  deny,
  P04_DENIALS,
  type ExplainedDecision,
  type P04Decision,
  type PolicyDecision,
} from "./policy-decision.js";
import { RUN_COMMAND } from "./run-command-input.js";
import type { PreparedToolCall } from "../tools/prepared-tool-call.js";
import type { RegisteredTool } from "../tools/registered-tool.js";

// The seed's names, importable from here as the seed has them.
export type { ApprovalRequest } from "../policy/approval-request.js";
export type { RegisteredTool } from "../tools/registered-tool.js";
export type { PolicyContext } from "./policy-context.js";
export type { PolicyDecision } from "./policy-decision.js";

/** The tool as the policy needs it: a `RegisteredTool`, or a prepared call's name and effect. */
export type AuthorizedTool = Pick<RegisteredTool, "name" | "effect">;

/**
 * The seed's function: its decision in its shape, a denial's words left out. The input is the
 * seed's `prepared.input`, typed `unknown` as the seed has it: anything that is not an object is
 * denied, never a TypeError.
 */
export function authorize(
  tool: AuthorizedTool,
  input: unknown,
  context: PolicyContext | P04Context,
): PolicyDecision {
  const decision = authorizeExplained(tool, input, context);
  switch (decision.type) {
    case "allow":
      return decision;
    case "deny":
      return { type: "deny", reason: decision.reason };
    case "ask":
      return { type: "ask", request: decision.request };
  }
}

/** `authorize`, with each denial's detail and scope, which the P04 path passes to the model. */
export function authorizeExplained(
  tool: AuthorizedTool,
  input: unknown,
  context: PolicyContext | P04Context,
): ExplainedDecision {
  // An MCP tool is external whatever effect its server claims (a read of someone else's service).
  const external = isP04Context(context) ? context.externalTools?.get(tool.name) : undefined;
  if (tool.effect === "external" || external !== undefined) {
    return isP04Context(context)
      ? authorizeExternal(tool.name, input, external, context)
      : deny(
          P04_DENIALS.networkOrExternal,
          `${tool.name} reaches outside this machine; P04 never allows an external effect`,
          `every ${tool.name} call`,
        );
  }
  if (tool.name === RUN_COMMAND) {
    return isInputObject(input)
      ? authorizeCommand(input, context)
      : deny(
          P04_DENIALS.invalidCommandInput,
          "run_command takes an object {command, args[]}",
          "this run_command call",
        );
  }
  if (!isInputObject(input)) {
    return deny(
      P04_DENIALS.invalidInput,
      `${tool.name} takes an object of arguments`,
      `this ${tool.name} call`,
    );
  }
  switch (tool.effect) {
    case "read":
    case "write":
      return authorizeWorkspacePath(tool.name, tool.effect, input, context);
    case "execute":
      if (context.network !== "disabled") {
        return deny(
          P04_DENIALS.networkOrExternal,
          `${tool.name} runs code, and commands run only with the network disabled; run without --network`,
          `every ${tool.name} call while the network is enabled`,
        );
      }
      return deny(
        P04_DENIALS.noMatchingPolicy,
        `no P04 policy allows ${tool.name}`,
        `every ${tool.name} call`,
      );
  }
}

function isInputObject(input: unknown): input is Readonly<Record<string, unknown>> {
  return typeof input === "object" && input !== null && !Array.isArray(input);
}

/** `authorize` for a call the registry prepared, in the harness's words. */
export function authorizeP04(call: PreparedToolCall, context: P04Context): P04Decision {
  const decision = authorizeExplained(
    { name: call.toolName, effect: call.effect },
    call.arguments,
    context,
  );
  switch (decision.type) {
    case "allow":
      return { behavior: "allow", scope: decision.scope };
    case "deny":
      return { behavior: "deny", reason: decision.reason, detail: decision.detail };
    case "ask":
      return { behavior: "ask", request: decision.request };
  }
}
