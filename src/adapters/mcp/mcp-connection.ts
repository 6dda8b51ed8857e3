/**
 * One MCP server, through the official SDK: started (a stdio program) or reached (Streamable
 * HTTP), its tools listed, its calls made, and closed with the run. The SDK is imported when the
 * first server starts, so a run without servers never loads it.
 */
import { pathToFileURL } from "node:url";
import type { Client } from "./sdk.js";
import type { McpServerSetting } from "../settings/index.js";
import { resultText, type ToolCallResult } from "./mcp-result.js";
import { EXTERNAL_ERRORS } from "../../core/tools/external-errors.js";
import { toolError, toolSuccess, type ToolResult } from "../../core/tools/tool-result.js";
import { redact, resolveSecrets, secretsOf } from "./secrets.js";
import { oneLine } from "../../core/common/one-line.js";
import { stdioLaunch, type StdioPlace } from "./stdio-launch.js";

/** A tool as the server lists it. */
export interface ListedTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly annotations?: { readonly readOnlyHint?: boolean | undefined } | undefined;
}

export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
export const START_TIMEOUT_MS = 30_000;
/** The last bytes of a stdio server's stderr, for the line that says why it stopped. */
const STDERR_KEPT = 2_000;

export interface ConnectOptions {
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
  /** Where stdio servers start, and the workspace they are told of (stdio-launch.ts). */
  readonly stdio: StdioPlace;
  readonly startTimeoutMs?: number;
}

export class McpConnection {
  readonly name: string;
  readonly transport: "stdio" | "http";
  readonly tools: readonly ListedTool[];
  readonly #client: Client;
  readonly #secrets: readonly string[];
  readonly #timeoutMs: number;
  readonly #stderr: () => string;
  readonly #stopNow: () => void;
  #stopped: string | undefined;

  private constructor(fields: {
    name: string;
    transport: "stdio" | "http";
    tools: readonly ListedTool[];
    client: Client;
    secrets: readonly string[];
    timeoutMs: number;
    stderr: () => string;
    stopNow: () => void;
  }) {
    this.name = fields.name;
    this.transport = fields.transport;
    this.tools = fields.tools;
    this.#client = fields.client;
    this.#secrets = fields.secrets;
    this.#timeoutMs = fields.timeoutMs;
    this.#stderr = fields.stderr;
    this.#stopNow = fields.stopNow;
    this.#client.onclose = () => {
      this.#stopped ??= this.#why("the server stopped");
    };
  }

  /** Starts or reaches the server and lists its tools; throws a one-line, redacted Error. */
  static async connect(
    name: string,
    setting: McpServerSetting,
    options: ConnectOptions,
  ): Promise<McpConnection> {
    const made = await transportFor(setting, options);
    const { Client, ListRootsRequestSchema } = await import("./sdk.js");
    const client = new Client(
      { name: "agent-harness", version: "0.1.0" },
      made.roots === undefined ? {} : { capabilities: { roots: {} } },
    );
    const roots = made.roots;
    if (roots !== undefined) {
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...roots] }));
    }
    const stderr = made.stderr;
    const timeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
    let tools: ListedTool[];
    try {
      await client.connect(made.transport, { timeout: timeoutMs });
      tools = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
          timeout: timeoutMs,
        });
        tools.push(...(page.tools as ListedTool[]));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      await client.close().catch(() => undefined);
      const tail = lastLine(stderr(), made.secrets);
      throw new Error(
        redact(
          `${describe(error, made.secrets)}${tail === "" ? "" : ` (stderr: ${tail})`}`,
          made.secrets,
        ),
        { cause: error },
      );
    }
    return new McpConnection({
      name,
      transport: made.kind,
      tools,
      client,
      secrets: made.secrets,
      timeoutMs: setting.timeout === undefined ? DEFAULT_CALL_TIMEOUT_MS : setting.timeout * 1000,
      stderr,
      stopNow: made.stopNow,
    });
  }

  /** Why the server is gone, when it is. */
  get stopped(): string | undefined {
    return this.#stopped;
  }

  /**
   * One call. Every way it ends is a result: the server's answer, its error (`external_tool_error`),
   * not sent because the server is gone (`external_unavailable`), or sent and then the server died
   * or went quiet (`execution_unknown`: it may have acted).
   */
  async call(
    tool: string,
    args: Readonly<Record<string, unknown>>,
    call: { readonly signal?: AbortSignal | undefined; readonly operationId?: string | undefined },
  ): Promise<ToolResult> {
    const label = `MCP server "${this.name}"`;
    if (this.#stopped !== undefined) {
      return toolError(
        EXTERNAL_ERRORS.unavailable,
        `${label} is not running (${this.#stopped}); the call was not sent`,
      );
    }
    let result: ToolCallResult;
    try {
      result = (await this.#client.callTool(
        {
          name: tool,
          arguments: { ...args },
          ...(call.operationId === undefined
            ? {}
            : { _meta: { "agent-harness/operationId": call.operationId } }),
        },
        undefined,
        {
          timeout: this.#timeoutMs,
          ...(call.signal === undefined ? {} : { signal: call.signal }),
        },
      )) as ToolCallResult;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // The server answered with a protocol error (an unknown tool, arguments it refused).
      // (Read again: the server may have stopped while the call waited.)
      const stopped = this.#stoppedNow();
      if (typeof code === "number" && code !== -32000 && code !== -32001 && stopped === undefined) {
        return toolError(
          EXTERNAL_ERRORS.toolFailed,
          redact(`${label} refused the call: ${describe(error, this.#secrets)}`, this.#secrets),
        );
      }
      const why = stopped ?? describe(error, this.#secrets);
      return toolError(
        EXTERNAL_ERRORS.executionUnknown,
        redact(
          `${label} did not answer the call (${why}): it was sent, so it may or may not have taken effect; check before calling it again${call.operationId === undefined ? "" : ` (operation ${call.operationId})`}`,
          this.#secrets,
        ),
      );
    }
    const text = resultText(result, this.#secrets);
    return result.isError === true
      ? toolError(EXTERNAL_ERRORS.toolFailed, `${label}, tool ${tool}: ${text}`)
      : toolSuccess(text);
  }

  #stoppedNow(): string | undefined {
    return this.#stopped;
  }

  /**
   * Stops the server with the run: a stdio server is sent SIGTERM now, before anything is awaited,
   * so it ends even when the agent exits at once; then the SDK closes its side.
   */
  async close(): Promise<void> {
    this.#stopped ??= "closed with the run";
    this.#stopNow();
    await this.#client.close().catch(() => undefined);
  }

  #why(what: string): string {
    const tail = lastLine(this.#stderr(), this.#secrets);
    return redact(tail === "" ? what : `${what}; stderr: ${tail}`, this.#secrets);
  }
}

interface MadeTransport {
  readonly kind: "stdio" | "http";
  readonly transport: import("@modelcontextprotocol/sdk/shared/transport.js").Transport;
  readonly secrets: readonly string[];
  readonly stderr: () => string;
  /** Ends a stdio server's process at once (nothing to do for HTTP). */
  readonly stopNow: () => void;
  /** A stdio server's roots (MCP `roots/list`): the workspace, on this machine. */
  readonly roots?: readonly { readonly uri: string; readonly name: string }[];
}

async function transportFor(
  setting: McpServerSetting,
  options: ConnectOptions,
): Promise<MadeTransport> {
  if ("command" in setting) {
    const env = resolveSecrets(setting.env, options.hostEnv, "env");
    // Refused here, before the SDK is loaded or anything is started.
    const launch = stdioLaunch(setting, env.values, options.hostEnv, options.stdio);
    const { StdioClientTransport } = await import("./sdk.js");
    const transport = new StdioClientTransport({
      command: launch.command,
      args: [...launch.args],
      env: { ...launch.env },
      cwd: launch.cwd,
      stderr: "pipe",
    });
    let kept = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      // Redacted before the window is cut, for the same reason.
      kept = redact(kept + chunk.toString("utf8"), env.secrets).slice(-STDERR_KEPT);
    });
    const stopNow = (): void => {
      const pid = transport.pid;
      if (pid === null) return;
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    };
    return {
      kind: "stdio",
      transport,
      secrets: env.secrets,
      stderr: () => kept,
      stopNow,
      roots: [{ uri: pathToFileURL(options.stdio.workspace).href, name: "workspace" }],
    };
  }
  const headers = resolveSecrets(setting.headers, options.hostEnv, "header");
  const { StreamableHTTPClientTransport } = await import("./sdk.js");
  const url = new URL(setting.url);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { ...headers.values } },
  });
  // Credentials in the URL (a token in its query) are redacted like a header.
  const inUrl = [url.password, url.username, ...url.searchParams.values()];
  return {
    kind: "http",
    transport,
    secrets: secretsOf([...headers.secrets, ...inUrl]),
    stderr: () => "",
    stopNow: () => undefined,
  };
}

// Redacted before they are shortened: a secret cut in two by the shortening leaves no whole copy
// to match, and its first half would be shown.
function lastLine(text: string, secrets: readonly string[]): string {
  const lines = redact(text, secrets)
    .split("\n")
    .filter((line) => line.trim() !== "");
  return oneLine(lines.at(-1) ?? "", 200);
}

function describe(error: unknown, secrets: readonly string[]): string {
  return oneLine(redact(error instanceof Error ? error.message : String(error), secrets), 300);
}
