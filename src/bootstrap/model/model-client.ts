/**
 * The run's model: a provider's chat-completions endpoint, or a recording replayed; recorded
 * again when `--record` says so.
 */
import {
  displayURL,
  OpenAIChatModelClient,
  RecordingModelClient,
  ReplayModelClient,
  resolveOpenAIConfig,
  type ModelRetryNotice,
} from "../../adapters/model/index.js";
import type { ModelClient } from "../../core/ports/model.js";
import type { Host } from "../host.js";
import { rehearseReplies } from "./rehearse-replies.js";
import { SwitchableModel } from "./switchable-model.js";

export interface ModelSettings {
  /** `--model`; else OPENAI_MODEL, else the built-in default. */
  readonly name: string | undefined;
  /** `--replay FILE`: replies served from a recording, no provider. */
  readonly replay: string | undefined;
  readonly replayLenient: boolean;
  /** `--record FILE`. */
  readonly record: string | undefined;
  /** `--request-timeout` (seconds), AGENT_REQUEST_TIMEOUT or the file's `requestTimeout`: per attempt. */
  readonly requestTimeoutMs: number;
  /** `--retries`, AGENT_RETRIES or the file's `retries`: how often a failed request is resent. */
  readonly retries: number;
}

export interface ChosenModel {
  readonly client: ModelClient;
  /** The model's name, for the run journal. */
  readonly name: string;
  /** For the run's first line: which model, served from where. */
  readonly description: string;
  /** The recording's real path, a harness-owned file, when `--record` is given. */
  readonly recordingPath?: string;
  /** The provider's model, which `/model` switches; absent for a replay. */
  readonly switchable?: SwitchableModel;
  /**
   * Readies, while the model thinks, what handling its first reply needs: the client's reply
   * path, run in memory (rehearse-replies.ts); absent for a replay, which sends nothing.
   */
  readonly prepare?: () => void;
}

export function createModelClient(
  settings: ModelSettings,
  host: Host,
  onRetry?: (notice: ModelRetryNotice) => void,
): ChosenModel {
  let chosen: ChosenModel;
  if (settings.replay === undefined) {
    const config = resolveOpenAIConfig(host.env, {
      model: settings.name,
      platform: host.platform,
    });
    const switchable = new SwitchableModel(
      config.model,
      (model) =>
        new OpenAIChatModelClient({
          ...config,
          model,
          timeoutMs: settings.requestTimeoutMs,
          maxRetries: settings.retries,
          onRetry,
        }),
    );
    chosen = {
      client: switchable,
      switchable,
      prepare: () => {
        void rehearseReplies();
      },
      name: config.model,
      description: `model ${config.model} · endpoint ${displayURL(config.baseURL)}`,
    };
  } else {
    chosen = {
      client: ReplayModelClient.fromFile(settings.replay, { lenient: settings.replayLenient }),
      name: `replay of ${settings.replay}`,
      description: `model replayed from ${settings.replay}`,
    };
  }
  if (settings.record === undefined) return chosen;
  const recording = new RecordingModelClient(chosen.client, settings.record);
  return { ...chosen, client: recording, recordingPath: recording.realPath };
}
