/**
 * Node compiles its own modules' functions when they are first called, and no code cache of ours
 * can hold them: the HTTP client's reply path (the parser's callbacks, `IncomingMessage`, the
 * readable stream's buffering, the agent keeping the connection for the next request and handing
 * it out again) first runs when the model's first reply comes in, ~2 ms of the first tool call's
 * turn that later ones do not pay (docs/performance.md). This runs that path while the model
 * thinks: two requests, one after the other, through an agent of its own whose connection is a
 * stream in memory that answers each with a small, complete reply. Nothing leaves the process:
 * no socket, no name lookup, no timer; the shared agent that the model's requests use is not
 * touched.
 */
import { Agent, request, type ClientRequest } from "node:http";
import type { Socket } from "node:net";
import { Duplex } from "node:stream";

const REPLY =
  "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n" +
  "connection: keep-alive\r\n\r\n{}";
const EXCHANGES = 2;

/**
 * A connection in memory: what a request writes is dropped, and `answer` pushes a reply. It
 * answers the calls an agent makes on a socket it keeps alive or hands out again, doing nothing.
 */
class InMemoryConnection extends Duplex {
  constructor() {
    super();
    // An error here can only be node's own, on a connection nothing else holds: between two
    // requests, while the agent keeps it, no request listens, and unheard it would end the run.
    this.on("error", () => undefined);
  }

  override _read(): void {
    // Replies are pushed by `answer`.
  }

  override _write(_chunk: unknown, _encoding: BufferEncoding, callback: () => void): void {
    callback();
  }

  answer(): void {
    this.push(REPLY);
  }

  setKeepAlive(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setTimeout(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }
}

/** An agent whose connections are in memory (`createConnection` is its documented override). */
class InMemoryAgent extends Agent {
  override createConnection(): Socket {
    return new InMemoryConnection() as unknown as Socket;
  }
}

/**
 * Runs the exchanges; the promise settles when they have ended (for tests: callers need not
 * wait). It never rejects and never throws: a node whose client asks more of a connection than
 * this one offers only leaves the first reply to pay as before.
 */
export function prepareHttpReply(): Promise<void> {
  return new Promise((resolve) => {
    const agent = new InMemoryAgent({ keepAlive: true });
    const done = (): void => {
      agent.destroy();
      resolve();
    };
    try {
      exchange(agent, EXCHANGES, done);
    } catch {
      done();
    }
  });
}

function exchange(agent: InMemoryAgent, left: number, done: () => void): void {
  if (left === 0) {
    done();
    return;
  }
  const sent: ClientRequest = request("http://in-memory.invalid/", {
    method: "POST",
    agent,
    headers: { "content-type": "application/json" },
  });
  sent.on("error", done);
  sent.once("finish", () => {
    (sent.socket as unknown as InMemoryConnection | null)?.answer();
  });
  sent.once("response", (reply) => {
    const chunks: Buffer[] = [];
    reply.on("data", (chunk: Buffer) => chunks.push(chunk));
    reply.on("error", done);
    reply.once("end", () => {
      Buffer.concat(chunks).toString("utf8");
      // The agent takes the connection back on the next tick; the next request then reuses it.
      setImmediate(() => {
        try {
          exchange(agent, left - 1, done);
        } catch {
          done();
        }
      });
    });
  });
  sent.end("{}");
}
