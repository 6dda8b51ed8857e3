/**
 * An HTTP agent whose connections are in memory, answering each request in turn with the next of
 * the replies it was given (raw HTTP/1.1 responses). For the model client's rehearsal
 * (bootstrap/model/rehearse-replies.ts): node's HTTP client runs as it does for a real reply,
 * but nothing leaves the process: its sockets have no handle (no descriptor, no connection, no
 * name lookup) and the shared agent is not touched.
 */
import { Agent } from "node:http";
import { Socket } from "node:net";

/** A raw HTTP/1.1 reply that keeps the connection, with `body` of `contentType`. */
export function keptAliveReply(contentType: string, body: string): string {
  return (
    `HTTP/1.1 200 OK\r\ncontent-type: ${contentType}\r\n` +
    `content-length: ${String(Buffer.byteLength(body))}\r\nconnection: keep-alive\r\n\r\n${body}`
  );
}

/**
 * A connection in memory: what a request writes is dropped, and the next reply is pushed once the
 * writes of that turn of the event loop are done (a request is written whole in one turn, as
 * node-http-fetch.ts writes it). A socket with no handle of its own, so that what an agent asks
 * of a connection it keeps alive or hands out again (`setKeepAlive`, `unref`, `ref`) runs node's
 * own code, as it will for the model's connection; only the stream's ends are in memory.
 */
class InMemoryConnection extends Socket {
  readonly #next: () => string | undefined;
  #answering = false;

  constructor(next: () => string | undefined) {
    super();
    this.#next = next;
    // An error here can only be node's own, on a connection nothing else holds: between two
    // requests, while the agent keeps it, no request listens, and unheard it would end the run.
    this.on("error", () => undefined);
  }

  override _read(): void {
    // Replies are pushed once a request has been written.
  }

  override _write(_chunk: unknown, _encoding: BufferEncoding, callback: () => void): void {
    callback();
    this.#answerSoon();
  }

  override _writev(_chunks: unknown, callback: () => void): void {
    callback();
    this.#answerSoon();
  }

  override _final(callback: () => void): void {
    callback();
  }

  #answerSoon(): void {
    if (this.#answering) return;
    this.#answering = true;
    process.nextTick(() => {
      this.#answering = false;
      const reply = this.#next();
      if (reply === undefined) this.destroy();
      else this.push(reply);
    });
  }
}

/** `createConnection` is the agent's documented override. */
export class InMemoryAgent extends Agent {
  readonly #replies: string[];

  constructor(replies: readonly string[]) {
    super({ keepAlive: true });
    this.#replies = [...replies];
  }

  override createConnection(): Socket {
    return new InMemoryConnection(() => this.#replies.shift());
  }
}
