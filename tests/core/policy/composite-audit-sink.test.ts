import { describe, expect, it } from "vitest";
import type { AuditSink } from "../../../src/core/policy/audit.js";
import { CompositeAuditSink } from "../../../src/core/policy/composite-audit-sink.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { preparedCall } from "../../support/prepared-calls.js";

const request = new PermissionRequest(preparedCall("glob", "read", {}));
const decision = PermissionDecision.allow("No permission rule blocked the request", "default");

/** A sink that logs its name when called; async ones finish on a later turn of the event loop. */
function namedSink(name: string, log: string[], behaviour: "sync" | "async" | "throw"): AuditSink {
  return {
    record: (seenRequest, seenDecision) => {
      expect([seenRequest, seenDecision]).toEqual([request, decision]);
      if (behaviour === "throw") {
        log.push(`${name} failed`);
        throw new Error(`${name} cannot write`);
      }
      if (behaviour === "sync") {
        log.push(name);
        return undefined;
      }
      return new Promise<void>((resolve) => {
        setImmediate(() => {
          log.push(name);
          resolve();
        });
      });
    },
  };
}

describe("CompositeAuditSink", () => {
  it("records to every sink in order, waiting for each before the next", async () => {
    const log: string[] = [];
    const sink = new CompositeAuditSink([
      namedSink("file", log, "async"),
      namedSink("terminal", log, "sync"),
    ]);
    await sink.record(request, decision);
    expect(log).toEqual(["file", "terminal"]);
  });

  it("rejects with the first failure and does not call the sinks after it", async () => {
    const log: string[] = [];
    const sink = new CompositeAuditSink([
      namedSink("file", log, "throw"),
      namedSink("terminal", log, "sync"),
    ]);
    await expect(sink.record(request, decision)).rejects.toThrow(new Error("file cannot write"));
    expect(log).toEqual(["file failed"]);
  });

  it("rejects when an async sink rejects", async () => {
    const failing: AuditSink = { record: () => Promise.reject(new Error("disk full")) };
    const log: string[] = [];
    const sink = new CompositeAuditSink([namedSink("terminal", log, "sync"), failing]);
    await expect(sink.record(request, decision)).rejects.toThrow(new Error("disk full"));
    expect(log).toEqual(["terminal"]);
  });

  it("keeps its own copy of the list: changing the array later changes nothing", async () => {
    const log: string[] = [];
    const sinks = [namedSink("file", log, "sync")];
    const sink = new CompositeAuditSink(sinks);
    sinks.push(namedSink("late", log, "throw"));
    await sink.record(request, decision);
    expect(log).toEqual(["file"]);
  });

  it("with no sinks, records nothing and resolves", async () => {
    await expect(new CompositeAuditSink([]).record(request, decision)).resolves.toBeUndefined();
  });
});
