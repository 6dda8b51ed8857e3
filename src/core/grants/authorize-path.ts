/** The policy for reads and writes: by where their path lands. */
import { whyWriteIsLoadedLater } from "../policy/write-loaded-later.js";
import { askToWrite } from "./ask-to-write.js";
import { isP04Context, type P04Context, type PolicyContext } from "./policy-context.js";
import { deny, P04_DENIALS, type ExplainedDecision } from "./policy-decision.js";
import { workspacePathVerdict } from "./workspace-path-policy.js";

/**
 * Reads and writes by where their path lands. A read without a `path` (glob's pattern, grep's
 * whole workspace) is confined by the tool itself and allowed for the workspace as a whole; a
 * write without one is denied, since nothing shows where it lands.
 */
export function authorizeWorkspacePath(
  toolName: string,
  effect: "read" | "write",
  input: Readonly<Record<string, unknown>>,
  context: PolicyContext | P04Context,
): ExplainedDecision {
  const inside: ExplainedDecision = {
    type: "allow",
    scope: `${effect} inside the workspace ${context.realWorkspaceRoot}`,
  };
  if (!Object.hasOwn(input, "path")) {
    if (effect === "read") return inside;
    return deny(
      P04_DENIALS.pathOutsideWorkspace,
      "the write names no path, so nothing shows it lands inside the workspace",
      `write by ${toolName}`,
    );
  }
  const path = input.path;
  const scope = `${effect} of ${JSON.stringify(path)} by ${toolName}`;
  if (typeof path !== "string") {
    return deny(P04_DENIALS.pathOutsideWorkspace, "the path is not a string", scope);
  }
  const classify = isP04Context(context) ? context.classifyPath : undefined;
  const verdict = workspacePathVerdict(effect, path, classify);
  switch (verdict.target) {
    case "inside":
      if (effect === "write" && isP04Context(context)) {
        const later = whyWriteIsLoadedLater(path, context);
        if (later !== undefined) return askToWrite(toolName, path, input, later, context);
      }
      return verdict.checked === "on disk"
        ? inside
        : { type: "allow", scope: `${effect} of ${JSON.stringify(path)}, checked by name` };
    case "outside":
      return deny(P04_DENIALS.pathOutsideWorkspace, verdict.detail, scope);
    case "protected":
      return deny(P04_DENIALS.protectedPath, verdict.detail, scope);
  }
}
