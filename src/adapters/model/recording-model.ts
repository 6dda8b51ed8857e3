import { appendFileSync, closeSync, fchmodSync, openSync } from "node:fs";
import { AgentRunError } from "../../core/agent-errors.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../core/model.js";
import { toRecordedExchange } from "./model-recording-format.js";
import { ModelConfigError } from "./model-config-error.js";
import { firstLineOfError } from "../../core/one-line.js";

/** The recording could not be written mid-run; the run stops rather than silently lose traffic. */
export class ModelRecordingError extends AgentRunError {
  override readonly name = "ModelRecordingError";
}

/**
 * `--record FILE`: passes each request to the wrapped client and appends `{ request, reply }` as one
 * JSON line once the reply arrives. Failed requests are not recorded: replay serves replies only.
 *
 * The file is started afresh when the client is built (one file, one conversation, which is what
 * replay expects), so a bad path fails before the run instead of after the first paid request.
 * Each line goes out in one synchronous append, so a crash leaves only complete lines behind.
 */
export class RecordingModelClient implements ModelClient {
  readonly #inner: ModelClient;
  readonly #path: string;

  constructor(inner: ModelClient, path: string) {
    this.#inner = inner;
    this.#path = path;
    try {
      // Owner-only, even when replacing an older file: a conversation holds file contents and
      // command output.
      const fd = openSync(path, "w", 0o600);
      try {
        fchmodSync(fd, 0o600);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      throw new ModelConfigError(
        `Cannot create the recording file ${path}: ${firstLineOfError(error)}`,
      );
    }
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    const reply = await this.#inner.complete(request);
    const line = JSON.stringify(toRecordedExchange(request.messages, request.tools, reply));
    try {
      appendFileSync(this.#path, `${line}\n`);
    } catch (error) {
      throw new ModelRecordingError(
        `Cannot append to the recording file ${this.#path}: ${firstLineOfError(error)}`,
      );
    }
    return reply;
  }
}
