/**
 * Node compiles its own modules' functions when they are first called, and no code cache of ours
 * can hold them; our own code, though cached, runs slower the first time (its inline caches are
 * empty). The model's first reply ran all of that in the first tool call's turn: node's HTTP
 * client reading a reply and keeping the connection for the next request, the SDK reading the
 * response, our stream reader and the reply's checks, the next request's serialising of a call
 * and its answer. This runs that path while the model thinks, through the same client class
 * over an agent in memory (adapters/model/in-memory-agent.ts): a whole JSON reply with a tool
 * call, then the request that answers it and a streamed reply, on the connection the first left
 * open. Nothing leaves the process and nothing is kept: the client, its body and the replies are
 * garbage once it ends.
 */
import {
  InMemoryAgent,
  OpenAIChatModelClient,
  REHEARSAL_BASE_URL,
  REHEARSAL_MODEL,
  REHEARSAL_QUESTION,
  rehearsalAnswer,
  rehearsalReplies,
} from "../../adapters/model/index.js";

/** Short: should node's client ever wait here, its timer must not keep a finished run alive. */
const TIMEOUT_MS = 2_000;

/**
 * Runs the rehearsal; the promise settles when it has ended (callers need not wait). It never
 * rejects: a node or SDK that asks more of a connection than this one offers only leaves the
 * first reply to pay as before.
 */
export async function rehearseReplies(): Promise<void> {
  const agent = new InMemoryAgent(rehearsalReplies());
  try {
    const client = new OpenAIChatModelClient({
      apiKey: REHEARSAL_MODEL,
      model: REHEARSAL_MODEL,
      baseURL: REHEARSAL_BASE_URL,
      timeoutMs: TIMEOUT_MS,
      maxRetries: 0,
      agent,
    });
    const first = await client.complete({ messages: REHEARSAL_QUESTION, tools: [] });
    await client.complete({ messages: rehearsalAnswer(first.message), tools: [] });
  } catch {
    // Nothing to report: the first real reply meets whatever this one did.
  } finally {
    agent.destroy();
  }
}
