/**
 * The stable codes of a call to a tool of another service (an MCP server), which the loop reads as
 * facts: did the call reach the service, and did it come back.
 */
export const EXTERNAL_ERRORS = Object.freeze({
  /** The service answered that the tool failed: the call reached it. */
  toolFailed: "external_tool_error",
  /** The service was not running or reachable: nothing was sent. */
  unavailable: "external_unavailable",
  /** Sent, then the service died or went quiet: it may or may not have acted. */
  executionUnknown: "execution_unknown",
});
