/**
 * The one `fetch` the openai SDK needs, over `node:http` / `node:https`. Node's own `fetch` (and
 * its `Headers`) load the bundled undici on first use, about 30 ms of every start before the
 * first request can leave; this sends the same request without it. Only what the SDK uses for a
 * chat call: method, headers, a string or byte body (or one in parts), an abort signal; the reply is read whole,
 * except a successful server-sent event stream, whose `body` is handed on as it arrives.
 */
import {
  request as httpRequest,
  type Agent,
  type ClientRequest,
  type IncomingMessage,
} from "node:http";
import { Readable } from "node:stream";
import { RequestBodyParts } from "./request-body-parts.js";

type HeaderInit =
  | Iterable<readonly [string, string]>
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | { entries(): Iterable<[string, string]> };

export interface LiteRequestInit {
  readonly method?: string;
  readonly headers?: HeaderInit | null;
  readonly body?: string | Uint8Array | null;
  readonly signal?: AbortSignal | null;
  /** Node's shared agent unless given (the model client's rehearsal gives one in memory). */
  readonly agent?: Agent;
}

/** A Headers with lower-cased names, enough for the SDK (and bundled in place of the global). */
export class LiteHeaders {
  readonly #values = new Map<string, string>();

  constructor(init?: HeaderInit | null) {
    if (init === undefined || init === null) return;
    for (const [name, value] of entriesOf(init)) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const existing = this.#values.get(key);
    this.#values.set(key, existing === undefined ? value : `${existing}, ${value}`);
  }

  set(name: string, value: string): void {
    this.#values.set(name.toLowerCase(), value);
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.#values.delete(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: LiteHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    yield* [...this.#values.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** The reply, read whole: what the SDK reads of a Response. */
export class LiteResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly url: string;
  readonly headers: LiteHeaders;
  /** Only for a streamed reply; `text()` is then empty. */
  readonly body: ReadableStream<Uint8Array> | null;
  readonly #bytes: Buffer;

  constructor(
    url: string,
    message: IncomingMessage,
    bytes: Buffer,
    body: ReadableStream<Uint8Array> | null = null,
  ) {
    this.body = body;
    this.url = url;
    this.status = message.statusCode ?? 0;
    this.statusText = message.statusMessage ?? "";
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = new LiteHeaders();
    const raw = message.rawHeaders;
    for (let index = 0; index + 1 < raw.length; index += 2) {
      this.headers.append(raw[index] ?? "", raw[index + 1] ?? "");
    }
    this.#bytes = bytes;
  }

  text(): Promise<string> {
    return Promise.resolve(this.#bytes.toString("utf8"));
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }
}

/**
 * Sends one request; rejects like fetch: `AbortError` on abort, a TypeError with `cause` else.
 * TLS and zlib are loaded only when a request needs them (a local server needs neither).
 */
export function nodeHttpFetch(
  input: string | URL,
  init: LiteRequestInit = {},
): Promise<LiteResponse> {
  const url = new URL(input);
  // getBuiltinModule, not import(): loads on demand, also inside the bundle's code-cache launcher.
  const send =
    url.protocol === "https:" ? process.getBuiltinModule("node:https").request : httpRequest;
  const headers: Record<string, string> = {};
  for (const [name, value] of entriesOf(init.headers ?? {})) headers[name.toLowerCase()] = value;
  const signal = init.signal ?? undefined;
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortError());
      return;
    }
    const request = send(url, {
      method: init.method ?? "GET",
      headers,
      ...(init.agent === undefined ? {} : { agent: init.agent }),
    });
    const onAbort = (): void => {
      request.destroy(abortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const fail = (error: Error): void => {
      signal?.removeEventListener("abort", onAbort);
      reject(error.name === "AbortError" ? error : new TypeError("fetch failed", { cause: error }));
    };
    request.once("error", fail);
    request.once("response", (message) => {
      if (isUncompressedEventStream(message)) {
        message.once("close", () => {
          signal?.removeEventListener("abort", onAbort);
        });
        const body = Readable.toWeb(message) as ReadableStream<Uint8Array>;
        resolve(new LiteResponse(url.href, message, Buffer.alloc(0), body));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      message.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_REPLY_BYTES) {
          request.destroy(tooLarge());
          return;
        }
        chunks.push(chunk);
      });
      message.once("error", fail);
      message.once("end", () => {
        signal?.removeEventListener("abort", onAbort);
        try {
          const body = decoded(message.headers["content-encoding"], Buffer.concat(chunks));
          resolve(new LiteResponse(url.href, message, body));
        } catch (error) {
          fail(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    sendBody(request, init.body);
  });
}

/** A body of parts (request-body-parts.ts) is written part by part, under its whole length. */
function sendBody(request: ClientRequest, body: LiteRequestInit["body"]): void {
  if (!(body instanceof RequestBodyParts)) {
    request.end(body ?? undefined);
    return;
  }
  request.setHeader("content-length", String(body.totalBytes));
  // Corked until `end` (which uncorks): one writev for all the parts on a kept-alive socket, not
  // a write (and a packet) each.
  request.cork();
  for (const part of body.parts) request.write(part);
  // 'finish': every byte is with the operating system; the request now only waits for the reply.
  request.end(body.onWritten);
}

/** A 2xx `text/event-stream` without content encoding: read as it arrives, not whole. */
function isUncompressedEventStream(message: IncomingMessage): boolean {
  const status = message.statusCode ?? 0;
  const type = message.headers["content-type"]?.toLowerCase() ?? "";
  const encoding = message.headers["content-encoding"]?.trim().toLowerCase() ?? "";
  return (
    status >= 200 &&
    status < 300 &&
    type.includes("text/event-stream") &&
    (encoding === "" || encoding === "identity")
  );
}

/**
 * A chat reply is kilobytes; a hostile or broken endpoint must not make the agent hold gigabytes
 * (or inflate a small compressed body into them) before anything is checked.
 */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

function tooLarge(): Error {
  return new Error(`the reply is over ${String(MAX_REPLY_BYTES)} bytes`);
}

/** We ask for no encoding, but a server may compress anyway; fetch would have undone it. */
function decoded(encoding: string | undefined, body: Buffer): Buffer {
  try {
    return decompressed(encoding, body);
  } catch (error) {
    // zlib's own words for maxOutputLength ("Cannot create a Buffer larger than …") say less.
    const code = (error as { code?: unknown }).code;
    throw code === "ERR_BUFFER_TOO_LARGE" ? tooLarge() : error;
  }
}

function decompressed(encoding: string | undefined, body: Buffer): Buffer {
  const name = encoding?.trim().toLowerCase() ?? "";
  if (name === "" || name === "identity") return body;
  const zlib = process.getBuiltinModule("node:zlib");
  switch (name) {
    case "gzip":
    case "x-gzip":
      return zlib.gunzipSync(body, { maxOutputLength: MAX_REPLY_BYTES });
    case "deflate":
      return zlib.inflateSync(body, { maxOutputLength: MAX_REPLY_BYTES });
    case "br":
      return zlib.brotliDecompressSync(body, { maxOutputLength: MAX_REPLY_BYTES });
    default:
      throw new Error(`unsupported content-encoding ${JSON.stringify(encoding)}`);
  }
}

function abortError(): Error {
  const error = new Error("This operation was aborted");
  error.name = "AbortError";
  return error;
}

function* entriesOf(init: HeaderInit): Iterable<readonly [string, string]> {
  if ("entries" in init && typeof init.entries === "function") {
    yield* (init as { entries(): Iterable<[string, string]> }).entries();
    return;
  }
  if (Symbol.iterator in init) {
    yield* init as Iterable<readonly [string, string]>;
    return;
  }
  for (const [name, value] of Object.entries(init as Record<string, unknown>)) {
    if (typeof value === "string") yield [name, value];
    else if (Array.isArray(value)) for (const one of value) yield [name, String(one)];
  }
}
