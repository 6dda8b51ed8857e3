import type { ModelClient, ModelReply, ModelRequest } from "../../core/ports/model.js";
import type { Message } from "../../core/ports/messages.js";
import {
  SANDBOX_NETWORK_NOTICE_CORRECTIONS,
  SANDBOX_NETWORK_OFF_NOTICE,
} from "../../features/sandbox-network-notice.js";
import { untilAborted } from "../model/while-model-waits.js";

/**
 * The agent is built, its system prompt and shell tool description written, while the sandbox
 * probe may still be deciding where commands run; they say the network is off when commands are
 * to run in the sandbox without it. Only the probe knows that is so: when it fails and `auto`
 * runs commands on the host, where the network is on, the line is false. So while the line is in
 * question the first request waits for the decision, and once the decision is "not off", every
 * request is sent without it.
 *
 * Unless the probe's last verdict on this machine is remembered (`remembered`, from bootstrap's
 * probe verdict cache): then each request goes out at once, saying what that verdict says, until
 * the probe has decided, and from then on follows the probe. Should the probe disagree, those
 * later requests also carry a correction in the system prompt. A stale memory can mislead only
 * the replies to requests sent before the probe decided, and none of those replies runs a command
 * on it: a command waits for the probe's decision (the tool path's `untilDecided`), so the first
 * request after any command already follows the probe.
 */
export class NetworkNoticeGate implements ModelClient {
  readonly #inner: ModelClient;
  /** Whether commands really run in the sandbox with the network off; settles with the probe. */
  readonly #networkOff: Promise<boolean>;
  readonly #told: boolean;
  readonly #remembered: boolean | undefined;
  /** Whether the probe has decided (from then on every request follows it). */
  #settled = false;
  /** What the requests said while they went out on the remembered verdict. */
  #firstSaid: boolean | undefined;
  /**
   * Each message and tool as rewritten, kept: the same history sends the same objects every turn,
   * so the model client's per-message work (serialising, checking) is not redone for them.
   */
  readonly #withoutNoticeOf = new WeakMap<object, unknown>();
  readonly #correctedOf = new WeakMap<object, unknown>();
  /**
   * The correction as a message of its own, for a history without a system prompt: one object per
   * setting, not one per request. What keeps what it has seen by identity (the pairing check, the
   * request body's kept bytes) would otherwise read the whole history again at every request.
   */
  readonly #noteMessages = new Map<boolean, Message>();

  /**
   * `told`: the agent was built with the notice in its prompt and shell tool. `remembered`: the
   * probe's remembered verdict on whether the network is off, said until the probe decides.
   */
  constructor(
    inner: ModelClient,
    told: boolean,
    networkOff: Promise<boolean>,
    remembered?: boolean,
  ) {
    this.#inner = inner;
    this.#told = told;
    this.#networkOff = networkOff;
    this.#remembered = remembered;
    const settle = (): void => {
      this.#settled = true;
    };
    void networkOff.then(settle, settle);
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    if (!this.#told) return this.#inner.complete(request);
    const remembered = this.#remembered;
    if (remembered !== undefined && !this.#settled) {
      this.#firstSaid = remembered;
      return this.#inner.complete(this.#saying(request, remembered));
    }
    const networkOff = (await untilAborted(this.#networkOff, request.signal)) === true;
    const truthful = this.#saying(request, networkOff);
    if (this.#firstSaid === undefined || this.#firstSaid === networkOff) {
      return this.#inner.complete(truthful);
    }
    return this.#inner.complete(this.#withCorrection(truthful, networkOff));
  }

  /** The request as built (it holds the notice), or without the notice when the network is on. */
  #saying(request: ModelRequest, networkOff: boolean): ModelRequest {
    return networkOff ? request : this.#withoutNotice(request);
  }

  /** The request without the notice: its line in the system prompt, its sentence in tool texts. */
  #withoutNotice(request: ModelRequest): ModelRequest {
    return {
      ...request,
      messages: request.messages.map((message) =>
        message.role === "system"
          ? kept(this.#withoutNoticeOf, message, () => ({
              ...message,
              content: without(message.content, "\n"),
            }))
          : message,
      ),
      tools: request.tools.map((tool) =>
        kept(this.#withoutNoticeOf, tool, () => ({
          ...tool,
          description: without(tool.description, " "),
        })),
      ),
    };
  }

  /**
   * The correction at the end of the system prompt (or as one, when the history has none): in
   * every later request at the same place, so the model reads it once, as one statement, and a
   * compaction of the history cannot drop it.
   */
  #withCorrection(request: ModelRequest, networkOff: boolean): ModelRequest {
    const first = request.messages[0];
    if (first?.role !== "system") {
      const note: Message = this.#noteMessages.get(networkOff) ?? {
        role: "system",
        content: correctionFor(networkOff),
      };
      this.#noteMessages.set(networkOff, note);
      return { ...request, messages: [note, ...request.messages] };
    }
    const corrected = kept(this.#correctedOf, first, () => ({
      ...first,
      content: `${first.content}\n${correctionFor(networkOff)}`,
    }));
    return { ...request, messages: [corrected, ...request.messages.slice(1)] };
  }
}

/** `make()` once per object: later requests get the same rewritten object. */
function kept<T extends object>(made: WeakMap<object, unknown>, original: T, make: () => T): T {
  const known = made.get(original) as T | undefined;
  if (known !== undefined) return known;
  const fresh = make();
  made.set(original, fresh);
  return fresh;
}

function without(text: string, separator: string): string {
  return text
    .replaceAll(`${separator}${SANDBOX_NETWORK_OFF_NOTICE}`, "")
    .replaceAll(SANDBOX_NETWORK_OFF_NOTICE, "");
}

function correctionFor(networkOff: boolean): string {
  return networkOff
    ? SANDBOX_NETWORK_NOTICE_CORRECTIONS.networkOff
    : SANDBOX_NETWORK_NOTICE_CORRECTIONS.networkOn;
}
