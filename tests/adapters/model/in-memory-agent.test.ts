import { Agent, globalAgent, request, type IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InMemoryAgent, keptAliveReply } from "../../../src/adapters/model/in-memory-agent.js";
import { newResources } from "../../support/new-resources.js";

afterEach(() => {
  vi.restoreAllMocks();
});

interface Answer {
  readonly body: string;
  readonly reused: boolean;
}

function send(agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request("http://in-memory.invalid/", { method: "POST", agent });
    sent.on("error", reject);
    sent.on("response", (reply: IncomingMessage) => {
      let body = "";
      reply.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      reply.on("end", () => {
        resolve({ body, reused: sent.reusedSocket });
      });
    });
    sent.end("{}");
  });
}

/** The agent takes a connection back on the tick after a reply ends. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe("InMemoryAgent", () => {
  it("answers each request with the next reply, the second on the kept connection", async () => {
    const connect = vi.spyOn(Socket.prototype, "connect");
    const resourcesBefore = process.getActiveResourcesInfo();
    const agent = new InMemoryAgent([
      keptAliveReply("application/json", '{"n":1}'),
      keptAliveReply("text/plain", "two"),
    ]);

    const first = await send(agent);
    await nextTurn();
    const second = await send(agent);
    agent.destroy();

    expect(first).toEqual({ body: '{"n":1}', reused: false });
    expect(second).toEqual({ body: "two", reused: true });
    expect(connect).not.toHaveBeenCalled();
    expect(Object.keys(globalAgent.sockets)).toEqual([]);
    expect(Object.keys(globalAgent.freeSockets)).toEqual([]);
    await nextTurn();
    expect(newResources(resourcesBefore)).toEqual([]);
  });

  it("fails a request it has no reply for, rather than leaving it waiting", async () => {
    const agent = new InMemoryAgent([]);
    await expect(send(agent)).rejects.toThrow(/socket hang up/);
    agent.destroy();
  });

  it("counts a reply's length in bytes", () => {
    expect(keptAliveReply("text/plain", "é")).toBe(
      "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n" +
        "connection: keep-alive\r\n\r\né",
    );
  });
});
