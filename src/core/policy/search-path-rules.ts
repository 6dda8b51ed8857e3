/**
 * A search that names a folder to search under (`grep`'s `path`) may reach any file below it, so
 * a person's path rule must cover it as it covers a search that names no file at all: each deny
 * and ask path rule for that tool (or `*`) matches every such call, whatever folder it names.
 * personal-rules.ts matches a `path` as the one file a call reads; that would let a deny of
 * `src/secret.ts` miss a search of `src`, and a search of `.` miss every deny.
 */
import type { PersonalRuleSpec } from "./personal-rules.js";
import { PERSONAL_RULE_SOURCE } from "./personal-rules.js";
import type { PermissionRequest } from "./permission-request.js";
import { PermissionRule } from "./permission-rule.js";

/** `searchTools`: the tools whose `path` argument names where to search, not a file to read. */
export function searchPathRules(
  rules: readonly PersonalRuleSpec[],
  searchTools: ReadonlySet<string>,
): PermissionRule[] {
  return rules.flatMap((rule) => {
    const { behavior, path } = rule;
    if (behavior === "allow" || path === undefined) return [];
    return [
      new PermissionRule({
        name: PERSONAL_RULE_SOURCE,
        behavior,
        reason: `Your settings file: ${behavior} ${rule.tool} ${path}`,
        matches: (request: PermissionRequest) =>
          searchTools.has(request.toolName) &&
          (rule.tool === "*" || rule.tool === request.toolName) &&
          request.call.effect === "read" &&
          typeof request.call.arguments.path === "string",
      }),
    ];
  });
}
