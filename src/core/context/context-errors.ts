import { AgentRunError, ModelProviderError } from "../common/agent-errors.js";

/**
 * The provider refused a request as too long for the model's context window (OpenAI's
 * `context_length_exceeded`, or the words llama.cpp, Ollama and vLLM use). The model adapter
 * throws it; the runner compacts once and tries again.
 */
export class ContextWindowExceededError extends ModelProviderError {}

/** Still too long after a compaction: the run ends (exit 1); a conversation can go on. */
export class ContextStillTooLargeError extends AgentRunError {
  override readonly name = "ContextStillTooLargeError";
  constructor(window: number, cause: string) {
    super(
      `The conversation does not fit the model's context window even after compaction (window ${String(window)} tokens; --context-window sets it): ${cause}`,
    );
  }
}
