import type { AssistantMessage, Message } from "./messages.js";

/** A tool as the model sees it: never its handler or effect. */
export interface ModelToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ModelRequest {
  readonly messages: readonly Message[];
  readonly tools: readonly ModelToolSpec[];
  readonly signal?: AbortSignal;
  /**
   * Called with each piece of the model's text as it arrives, for display only: the reply still
   * holds the whole text. A client that cannot stream calls it once with the whole text, or not at all.
   */
  readonly onTextDelta?: (text: string) => void;
  /** A compaction's summary request (core/context): not a turn, and its text is not shown. */
  readonly purpose?: "summary";
  /**
   * Called each time the request has been handed whole to the operating system (once per
   * attempt): from then on the process only waits for the model. A client that cannot tell never
   * calls it.
   */
  readonly onSent?: () => void;
  /**
   * Called once the reply has begun to arrive (its headers; a streamed reply's text follows):
   * from then on the process is busy with it. A client that cannot tell never calls it.
   */
  readonly onReplyStarted?: () => void;
}

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "other";

export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

export interface ModelReply {
  readonly message: AssistantMessage;
  readonly finishReason: FinishReason;
  readonly usage?: TokenUsage;
}

/** The model port: the loop never knows which provider, or whether it is a recording. */
export interface ModelClient {
  complete(request: ModelRequest): Promise<ModelReply>;
}
