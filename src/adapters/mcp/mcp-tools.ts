/**
 * A server's tools as registry tools: `mcp__<server>__<tool>`, effect `read` when the server says
 * `readOnlyHint`, else `external`; their JSON Schema made strict at the top (an argument the tool
 * does not declare is refused by prepare, before the policy) and checked with the schema zod
 * builds from it. A tool whose name or schema cannot be taken is left out, and the model told.
 */
import { z } from "zod";
import { canonicalJson } from "../../core/common/canonical-json.js";
import type { ToolDefinition, ToolEffect, ToolSchema } from "../../core/tools/tool-definition.js";
import type { McpConnection, ListedTool } from "./mcp-connection.js";

const TOOL_PART = /^[A-Za-z0-9_]+$/;
const MAX_TOOL_NAME = 64;
const MAX_DESCRIPTION = 1_024;

export interface McpTool {
  readonly definition: ToolDefinition;
  readonly server: string;
  /** Its name on the server. */
  readonly tool: string;
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

export function toolsOf(connection: McpConnection): {
  readonly tools: McpTool[];
  readonly notes: string[];
} {
  const tools: McpTool[] = [];
  const notes: string[] = [];
  for (const listed of connection.tools) {
    const name = mcpToolName(connection.name, listed.name);
    if (!TOOL_PART.test(listed.name) || name.length > MAX_TOOL_NAME) {
      notes.push(
        `MCP server "${connection.name}": tool ${JSON.stringify(listed.name).slice(0, 80)} is left out (a tool name is letters, digits and _, ${MAX_TOOL_NAME} characters in all)`,
      );
      continue;
    }
    const parameters = strictParameters(listed.inputSchema);
    let schema: ToolSchema;
    try {
      schema = z.fromJSONSchema(parameters) as unknown as ToolSchema;
    } catch {
      notes.push(
        `MCP server "${connection.name}": tool ${listed.name} is left out (its input schema cannot be checked)`,
      );
      continue;
    }
    tools.push({
      server: connection.name,
      tool: listed.name,
      definition: definitionOf(connection, listed, name, parameters, schema),
    });
  }
  return { tools, notes };
}

function definitionOf(
  connection: McpConnection,
  listed: ListedTool,
  name: string,
  parameters: Record<string, unknown>,
  schema: ToolSchema,
): ToolDefinition {
  const effect: ToolEffect = listed.annotations?.readOnlyHint === true ? "read" : "external";
  const said = (listed.description ?? "").trim().slice(0, MAX_DESCRIPTION);
  return {
    name,
    description: `Tool "${listed.name}" of MCP server "${connection.name}"${said === "" ? "." : `: ${said}`}`,
    effect,
    remote: true,
    schema,
    parameters,
    finalArguments: (args) => ({
      mcpServer: connection.name,
      mcpTool: listed.name,
      mcpArguments: canonicalJson(args),
    }),
    handler: async (args, context) => {
      if (context.idempotencyKey !== undefined) {
        context.reportExecution?.({ operationId: context.idempotencyKey });
      }
      return connection.call(listed.name, args, {
        signal: context.signal,
        operationId: context.idempotencyKey,
      });
    },
  };
}

/** The server's schema, an object whose top level takes no field it does not declare. */
function strictParameters(inputSchema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy = structuredClone(inputSchema) as Record<string, unknown>;
  delete copy.$schema;
  return {
    ...copy,
    type: "object",
    properties: copy.properties ?? {},
    additionalProperties: false,
  };
}
