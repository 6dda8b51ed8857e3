/**
 * The model port (`ModelClient` in core/ports/model.ts), adapted to OpenAI-compatible chat completions
 * through the official `openai` SDK, plus the two wrappers that make runs repeatable: a recorder
 * that writes each exchange to a JSONL file and a replayer that answers from one.
 */
export {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MODEL,
  DEFAULT_TIMEOUT_MS,
  displayURL,
  ModelConfigError,
  OpenAIChatModelClient,
  resolveOpenAIConfig,
  type OpenAIConfig,
} from "./openai-chat.js";
export { InMemoryAgent } from "./in-memory-agent.js";
export {
  REHEARSAL_BASE_URL,
  REHEARSAL_MODEL,
  REHEARSAL_QUESTION,
  rehearsalAnswer,
  rehearsalReplies,
} from "./rehearsal-replies.js";
export type { ModelRetryNotice } from "./request-retries.js";
export { ModelRecordingError, RecordingModelClient } from "./recording-model.js";
export { REPLAY_LIMIT_BYTES, ReplayModelClient, type ReplayOptions } from "./replay-model.js";
