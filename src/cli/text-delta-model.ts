import type { ModelClient, ModelReply, ModelRequest } from "../core/model.js";

/** The model, with every request's text pieces passed to `onTextDelta` (for the terminal). */
export function withTextDeltas(
  model: ModelClient,
  onTextDelta: (text: string) => void,
): ModelClient {
  return {
    complete(request: ModelRequest): Promise<ModelReply> {
      return model.complete({ ...request, onTextDelta });
    },
  };
}
