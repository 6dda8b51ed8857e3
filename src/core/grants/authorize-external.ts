/**
 * The policy for a tool that acts outside this machine: the seed denies an external effect
 * (`network_or_external_effect_not_allowed`). An MCP tool that the person's allowlist names (the
 * server and the tool) is asked instead, each call, with a request whose digest binds the exact
 * input, server and tool: a grant for one call is no grant for another.
 */
import { actionDigest } from "../policy/approval-request.js";
import type { ExternalToolFacts, P04Context } from "./policy-context.js";
import { deny, P04_DENIALS, type ExplainedDecision } from "./policy-decision.js";

export const EXTERNAL_RISKS = Object.freeze([
  "it acts outside this machine, through a service you configured: the sandbox does not contain it and the harness cannot undo it",
  "the arguments are the model's: read them as the service will",
]);

export function authorizeExternal(
  name: string,
  input: unknown,
  facts: ExternalToolFacts | undefined,
  context: P04Context,
): ExplainedDecision {
  if (facts === undefined) {
    return deny(
      P04_DENIALS.networkOrExternal,
      `${name} reaches outside this machine; P04 never allows an external effect`,
      `every ${name} call`,
    );
  }
  if (!facts.allowed) {
    return deny(
      P04_DENIALS.networkOrExternal,
      `${name} is tool "${facts.tool}" of MCP server "${facts.server}", which the allowlist does not name; P04 allows an external tool only when the person's settings file lists it (mcpServers.${facts.server}.allow)`,
      `every ${name} call`,
    );
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return deny(
      P04_DENIALS.invalidInput,
      `${name} takes an object of arguments`,
      `this ${name} call`,
    );
  }
  const where = `MCP server "${facts.server}"`;
  const digest = actionDigest({
    profile: "P04",
    tool: name,
    input: input as Readonly<Record<string, unknown>>,
    cwd: context.cwd,
    network: context.network,
    sandbox: `external: ${where}, tool "${facts.tool}"`,
    script: null,
  });
  return {
    type: "ask",
    why: `A person approves each exact call: the tool reaches outside this machine (${where})`,
    request: {
      id: context.newRequestId(),
      actionDigest: digest,
      summary: `${name} ${JSON.stringify(input)} · effect external · ${where}, tool "${facts.tool}"`,
      risks: EXTERNAL_RISKS,
      expiresAt: new Date(context.now + context.requestTtlMs).toISOString(),
    },
  };
}
