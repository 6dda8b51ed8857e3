import { writeSync } from "node:fs";
import { AgentRunError } from "../../core/common/agent-errors.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../core/ports/model.js";
import { toRecordedExchange } from "./model-recording-format.js";
import { ModelConfigError } from "./model-config-error.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { openHarnessOutput } from "../filesystem/index.js";

/** The recording could not be written mid-run; the run stops rather than silently lose traffic. */
export class ModelRecordingError extends AgentRunError {
  override readonly name = "ModelRecordingError";
}

/**
 * `--record FILE`: passes each request to the wrapped client and appends `{ request, reply }` as one
 * JSON line once the reply arrives. Failed requests are not recorded: replay serves replies only.
 *
 * The file is started afresh (owner-only) when the client is built (one file, one conversation,
 * which is what replay expects), so a bad path fails before the run instead of after the first
 * paid request. It is opened once, never through a symbolic link and only as a regular file, and
 * every line goes to that descriptor: a command that later swaps the name redirects nothing.
 * Each line goes out in synchronous writes, so a crash leaves only complete lines behind.
 */
export class RecordingModelClient implements ModelClient {
  /** Absolute real path of the recording, for the workspace's protected files. */
  readonly realPath: string;
  readonly #inner: ModelClient;
  readonly #path: string;
  readonly #fd: number;

  constructor(inner: ModelClient, path: string) {
    this.#inner = inner;
    this.#path = path;
    try {
      const output = openHarnessOutput(path, { truncate: true });
      this.#fd = output.fd;
      this.realPath = output.realPath;
    } catch (error) {
      throw new ModelConfigError(
        `Cannot create the recording file ${path}: ${firstLineOfError(error)}`,
      );
    }
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    const reply = await this.#inner.complete(request);
    const json = JSON.stringify(toRecordedExchange(request.messages, request.tools, reply));
    const line = Buffer.from(`${json}\n`, "utf8");
    try {
      for (let written = 0; written < line.length;) {
        written += writeSync(this.#fd, line, written, line.length - written);
      }
    } catch (error) {
      throw new ModelRecordingError(
        `Cannot append to the recording file ${this.#path}: ${firstLineOfError(error)}`,
      );
    }
    return reply;
  }
}
