import type { ModelClient, ModelReply, ModelRequest } from "../core/ports/model.js";
import { SANDBOX_NETWORK_OFF_NOTICE } from "../features/sandbox-network-notice.js";
import { untilAborted } from "./first-reply-gate.js";

/**
 * The agent is built, its system prompt and shell tool description written, while the sandbox
 * probe may still be deciding where commands run; they say the network is off when commands are
 * to run in the sandbox without it. Only the probe knows that is so: when it fails and `auto`
 * runs commands on the host, where the network is on, the line is false. So while the line is in
 * question the first request waits for the decision (the probe started with the run and has
 * usually ended by then), and once the decision is "not off", every request is sent without it.
 */
export class NetworkNoticeGate implements ModelClient {
  readonly #inner: ModelClient;
  /** Whether commands really run in the sandbox with the network off; settles with the probe. */
  readonly #networkOff: Promise<boolean>;
  readonly #told: boolean;

  /** `told`: the agent was built with the notice in its prompt and shell tool. */
  constructor(inner: ModelClient, told: boolean, networkOff: Promise<boolean>) {
    this.#inner = inner;
    this.#told = told;
    this.#networkOff = networkOff;
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    if (!this.#told) return this.#inner.complete(request);
    const networkOff = await untilAborted(this.#networkOff, request.signal);
    return this.#inner.complete(networkOff === true ? request : withoutNotice(request));
  }
}

/** The request without the notice: its line in the system prompt, its sentence in tool texts. */
function withoutNotice(request: ModelRequest): ModelRequest {
  return {
    ...request,
    messages: request.messages.map((message) =>
      message.role === "system" ? { ...message, content: without(message.content, "\n") } : message,
    ),
    tools: request.tools.map((tool) => ({ ...tool, description: without(tool.description, " ") })),
  };
}

function without(text: string, separator: string): string {
  return text
    .replaceAll(`${separator}${SANDBOX_NETWORK_OFF_NOTICE}`, "")
    .replaceAll(SANDBOX_NETWORK_OFF_NOTICE, "");
}
