import { Agent, globalAgent } from "node:http";
import { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { prepareHttpReply } from "../../../src/adapters/model/prepare-http-reply.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("prepareHttpReply", () => {
  it("answers two requests in memory, the second on the kept connection, with no socket", async () => {
    const connect = vi.spyOn(Socket.prototype, "connect");
    const reused = vi.spyOn(Agent.prototype, "reuseSocket");
    const kept = vi.spyOn(Agent.prototype, "keepSocketAlive");
    const resourcesBefore = process.getActiveResourcesInfo();

    await prepareHttpReply();

    expect(connect).not.toHaveBeenCalled();
    // The path a first reply takes, and the next request's on the same connection.
    expect(kept).toHaveBeenCalledTimes(2);
    expect(reused).toHaveBeenCalledTimes(1);
    expect(Object.keys(globalAgent.sockets)).toEqual([]);
    expect(Object.keys(globalAgent.freeSockets)).toEqual([]);
    expect(process.getActiveResourcesInfo()).toEqual(resourcesBefore);
  });

  it("settles, and throws nothing, when node's client fails it", async () => {
    vi.spyOn(Agent.prototype, "getName").mockImplementation(() => {
      throw new Error("not today");
    });
    await expect(prepareHttpReply()).resolves.toBeUndefined();
  });

  it("settles when the connection fails mid-exchange", async () => {
    vi.spyOn(Agent.prototype, "keepSocketAlive").mockImplementation((socket) => {
      socket.destroy(new Error("gone"));
      return false;
    });
    await expect(prepareHttpReply()).resolves.toBeUndefined();
  });
});
