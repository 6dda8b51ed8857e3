import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  LiteHeaders,
  MAX_REPLY_BYTES,
  nodeHttpFetch,
} from "../../../src/adapters/model/node-http-fetch.js";
import { RequestBodyParts } from "../../../src/adapters/model/request-body-parts.js";

interface Seen {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

let server: Server | undefined;

afterEach(async () => {
  const open = server;
  server = undefined;
  if (open !== undefined) await new Promise((resolve) => open.close(resolve));
});

async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/chat/completions`, seen };
}

describe("LiteHeaders", () => {
  it("is case-insensitive, joins appended values, and lists names lower-cased and sorted", () => {
    const headers = new LiteHeaders({ "X-B": "1", Accept: "application/json" });
    headers.append("x-b", "2");
    headers.set("Content-Type", "text/plain");
    headers.delete("ACCEPT");
    expect(headers.get("X-b")).toBe("1, 2");
    expect(headers.has("accept")).toBe(false);
    expect(headers.get("missing")).toBeNull();
    expect([...headers]).toEqual([
      ["content-type", "text/plain"],
      ["x-b", "1, 2"],
    ]);
  });
});

describe("nodeHttpFetch", () => {
  it("sends a body of parts whole, in order, under its whole Content-Length", async () => {
    const { url, seen } = await serve((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end("{}");
    });
    const parts = [Buffer.from('{"messages":['), Buffer.from('"ünï"'), Buffer.from("]}")];

    await nodeHttpFetch(url, { method: "POST", body: new RequestBodyParts(parts) });

    expect(seen.map((one) => one.body)).toEqual(['{"messages":["ünï"]}']);
    expect(seen[0]?.headers["content-length"]).toBe("22");
    expect(seen[0]?.headers["transfer-encoding"]).toBeUndefined();
  });

  it("says once when a body of parts has been written, while the reply is still awaited", async () => {
    let release: (() => void) | undefined;
    const { url } = await serve((_request, response) => {
      release = () => {
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end("{}");
      };
    });
    let written = 0;
    let wroteBody: () => void = () => undefined;
    const bodyWritten = new Promise<void>((resolve) => (wroteBody = resolve));
    const body = new RequestBodyParts([Buffer.from('{"a":'), Buffer.from("1}")], () => {
      written += 1;
      wroteBody();
    });
    let answered = false;
    const fetched = nodeHttpFetch(url, { method: "POST", body }).then((response) => {
      answered = true;
      return response;
    });

    await bodyWritten;
    expect([written, answered]).toEqual([1, false]);
    await vi.waitFor(() => {
      expect(release).toBeDefined();
    });
    release?.();
    expect((await fetched).status).toBe(200);
    expect(written).toBe(1);
  });

  it("sends method, headers and body, and reads status, headers and JSON", async () => {
    const { url, seen } = await serve((_request, response) => {
      response.writeHead(201, { "Content-Type": "application/json", "X-Request-Id": "r1" });
      response.end('{"ok":true}');
    });
    const headers = new LiteHeaders({
      Authorization: "Bearer k",
      "Content-Type": "application/json",
    });

    const response = await nodeHttpFetch(url, { method: "POST", headers, body: '{"a":1}' });

    expect(seen).toEqual([
      expect.objectContaining({ method: "POST", url: "/v1/chat/completions", body: '{"a":1}' }),
    ]);
    expect(seen[0]?.headers.authorization).toBe("Bearer k");
    expect(seen[0]?.headers["accept-encoding"]).toBeUndefined();
    expect([response.status, response.ok, response.url]).toEqual([201, true, url]);
    expect(response.headers.get("x-request-id")).toBe("r1");
    expect(await response.json()).toEqual({ ok: true });
  });

  it("takes plain-object headers and undoes a gzip encoding", async () => {
    const { url, seen } = await serve((_request, response) => {
      response.writeHead(500, { "Content-Encoding": "gzip" });
      response.end(gzipSync("server trouble"));
    });
    const response = await nodeHttpFetch(url, { headers: { "X-One": "1" } });
    expect(seen[0]?.headers["x-one"]).toBe("1");
    expect([response.status, response.ok]).toEqual([500, false]);
    expect(await response.text()).toBe("server trouble");
  });

  it("refuses a reply over the size limit, sent plain or as a small gzip bomb", async () => {
    const { url } = await serve((request, response) => {
      if (request.headers["x-bomb"] === "1") {
        response.writeHead(200, { "Content-Encoding": "gzip" });
        response.end(gzipSync(Buffer.alloc(MAX_REPLY_BYTES + 1)));
        return;
      }
      response.writeHead(200);
      response.end(Buffer.alloc(MAX_REPLY_BYTES + 1));
    });
    for (const bomb of ["0", "1"]) {
      const error: unknown = await nodeHttpFetch(url, { headers: { "X-Bomb": bomb } }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).cause).toEqual(
        new Error(`the reply is over ${String(MAX_REPLY_BYTES)} bytes`),
      );
    }
  });

  it("rejects like fetch: a TypeError whose cause carries the system error code", async () => {
    const { url } = await serve(() => undefined);
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    for (const target of [url, url.replace("http:", "https:")]) {
      const error: unknown = await nodeHttpFetch(target).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).cause).toMatchObject({ code: "ECONNREFUSED" });
    }
  });

  it("rejects with an AbortError when the signal aborts, before or during the request", async () => {
    const { url } = await serve(() => undefined); // never answers
    const early = new AbortController();
    early.abort();
    await expect(nodeHttpFetch(url, { signal: early.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    const late = new AbortController();
    const pending = nodeHttpFetch(url, { method: "POST", body: "{}", signal: late.signal });
    setTimeout(() => {
      late.abort();
    }, 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});
