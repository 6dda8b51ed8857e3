import type { ModelClient, ModelReply, ModelRequest } from "../../core/ports/model.js";

/** The model, with every request's text pieces passed to `onTextDelta` (for the terminal). */
export function withTextDeltas(
  model: ModelClient,
  onTextDelta: (text: string) => void,
): ModelClient {
  return {
    complete(request: ModelRequest): Promise<ModelReply> {
      // A compaction's summary is the harness's own business, not the model's answer.
      if (request.purpose === "summary") return model.complete(request);
      // Showing text must never fail the request it comes with (observers are shielded the same way).
      const shown = (text: string): void => {
        try {
          onTextDelta(text);
        } catch {
          // the terminal could not take it; the reply itself is unaffected
        }
      };
      return model.complete({ ...request, onTextDelta: shown });
    },
  };
}
