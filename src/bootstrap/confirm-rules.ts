/**
 * The profile's own ask rules on a terminal path, where a passthrough is an allow: a file write
 * (chapter 3) and a call that acts outside this machine.
 */
import { PermissionRule } from "../core/policy/permission-rule.js";

export const CONFIRM_FILE_WRITE = new PermissionRule({
  name: "confirm-file-write",
  behavior: "ask",
  reason: "File writes require explicit approval from chapter 3 onward",
  matches: (request) => request.toolName === "write_file" || request.toolName === "edit_file",
});

/**
 * A call that acts outside this machine (an MCP server's tool, whatever effect its server
 * claims) asks on a terminal path: without this rule nothing would ask, and a passthrough is an
 * allow. By effect, never by name: a personal rule or a run grant may answer the ask.
 */
export const CONFIRM_EXTERNAL_CALL = new PermissionRule({
  name: "confirm-external-call",
  behavior: "ask",
  reason: "A call to an MCP server acts outside this machine and requires approval",
  matches: (request) => request.call.remote || request.call.effect === "external",
});
