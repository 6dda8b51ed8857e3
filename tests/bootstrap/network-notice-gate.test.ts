import { describe, expect, it } from "vitest";
import { NetworkNoticeGate } from "../../src/bootstrap/execution/network-notice-gate.js";
import type { ModelRequest } from "../../src/core/ports/model.js";
import { RunCancelledError } from "../../src/core/common/agent-errors.js";
import {
  SANDBOX_NETWORK_NOTICE_CORRECTIONS,
  SANDBOX_NETWORK_OFF_NOTICE,
} from "../../src/features/sandbox-network-notice.js";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import { P03 } from "../../src/core/profiles.js";
import type { ModelClient } from "../../src/core/ports/model.js";
import { RecordingApprover, RecordingAuditSink } from "../support/permission-fakes.js";
import { RecordingCommandRunner } from "../support/recording-command-runner.js";
import { ScriptedModelClient, textReply } from "../support/scripted-model.js";
import { settlesSoon } from "../support/settles-soon.js";

/** The first request a real P03 agent sends through `model`, built with or without the notice. */
async function firstRequestOf(model: ModelClient, sandboxNetworkOff: boolean): Promise<void> {
  const agent = buildAgent(P03, {
    workspace: "/nonexistent-workspace-for-offline-tests",
    commandRunner: new RecordingCommandRunner(),
    model,
    approvalProvider: new RecordingApprover(() => undefined),
    auditSink: new RecordingAuditSink(),
    sandboxNetworkOff,
  });
  await agent.run("hello");
}

/** A request as the agent builds it when told the network is off (build-agent.ts). */
const TOLD: ModelRequest = {
  messages: [
    { role: "system", content: `You are an agent.\n${SANDBOX_NETWORK_OFF_NOTICE}\nBe brief.` },
    { role: "user", content: "install left-pad" },
  ],
  tools: [
    {
      name: "shell",
      description: `Run one command. ${SANDBOX_NETWORK_OFF_NOTICE}`,
      parameters: {},
    },
    { name: "read_file", description: "Read a file.", parameters: {} },
  ],
};

const UNTOLD: ModelRequest = {
  messages: [
    { role: "system", content: "You are an agent.\nBe brief." },
    { role: "user", content: "install left-pad" },
  ],
  tools: [
    { name: "shell", description: "Run one command.", parameters: {} },
    { name: "read_file", description: "Read a file.", parameters: {} },
  ],
};

function decision(): { promise: Promise<boolean>; decide: (networkOff: boolean) => void } {
  let decide: (networkOff: boolean) => void = () => undefined;
  const promise = new Promise<boolean>((done) => (decide = done));
  return { promise, decide };
}

describe("NetworkNoticeGate: the network-off line follows the probe", () => {
  it("holds the first request until the probe decides; the sandbox confirmed, the line stays", async () => {
    const model = new ScriptedModelClient([textReply("one"), textReply("two")]);
    const probe = decision();
    const gate = new NetworkNoticeGate(model, true, probe.promise);

    const first = gate.complete(TOLD);
    expect(await settlesSoon(first)).toBe(false);
    expect(model.requests).toHaveLength(0);
    probe.decide(true);
    expect((await first).message.content).toBe("one");
    await gate.complete(TOLD);
    expect(model.requests.map((request) => request.messages)).toEqual([
      TOLD.messages,
      TOLD.messages,
    ]);
    expect(model.requests[0]?.tools).toEqual(TOLD.tools);
  });

  it("the probe failed and commands run on the host: every request goes without the line", async () => {
    const model = new ScriptedModelClient([textReply("one"), textReply("two")]);
    const gate = new NetworkNoticeGate(model, true, Promise.resolve(false));
    await gate.complete(TOLD);
    await gate.complete(TOLD);
    for (const request of model.requests) {
      expect(request.messages).toEqual(UNTOLD.messages);
      expect(request.tools).toEqual(UNTOLD.tools);
    }
    expect(model.requests).toHaveLength(2);
  });

  it("a real agent built with the line sends, after a failed probe, what one built without it sends", async () => {
    const gated = new ScriptedModelClient([textReply("hi")]);
    await firstRequestOf(new NetworkNoticeGate(gated, true, Promise.resolve(false)), true);
    const plain = new ScriptedModelClient([textReply("hi")]);
    await firstRequestOf(plain, false);
    expect(gated.requests[0]?.messages).toEqual(plain.requests[0]?.messages);
    expect(gated.requests[0]?.tools).toEqual(plain.requests[0]?.tools);
    const told = new ScriptedModelClient([textReply("hi")]);
    await firstRequestOf(told, true);
    expect(told.requests[0]?.messages).not.toEqual(plain.requests[0]?.messages);
  });

  it("not told at all: nothing waits and nothing changes", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    const gate = new NetworkNoticeGate(model, false, new Promise(() => undefined));
    await gate.complete(UNTOLD);
    expect(model.requests[0]?.messages).toEqual(UNTOLD.messages);
  });

  it("stops waiting when the run is cancelled", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    const cancel = new AbortController();
    const gate = new NetworkNoticeGate(model, true, new Promise(() => undefined));
    const first = gate.complete({ ...TOLD, signal: cancel.signal });
    cancel.abort();
    await expect(first).rejects.toBeInstanceOf(RunCancelledError);
    expect(model.requests).toHaveLength(0);
  });
});

describe("NetworkNoticeGate with the probe's remembered verdict", () => {
  it("sends the first request at once, as remembered; the probe agrees: nothing more is said", async () => {
    const model = new ScriptedModelClient([textReply("one"), textReply("two")]);
    const probe = decision();
    const gate = new NetworkNoticeGate(model, true, probe.promise, true);

    const first = gate.complete(TOLD);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.messages).toEqual(TOLD.messages);
    expect(model.requests[0]?.tools).toEqual(TOLD.tools);
    await first;
    probe.decide(true);
    await gate.complete(TOLD);
    expect(model.requests[1]?.messages).toEqual(TOLD.messages);
    expect(model.requests[1]?.tools).toEqual(TOLD.tools);
  });

  it("remembered 'off', the probe says commands run on the host: later requests drop the line and correct it", async () => {
    const model = new ScriptedModelClient([textReply("one"), textReply("two"), textReply("three")]);
    const probe = decision();
    const gate = new NetworkNoticeGate(model, true, probe.promise, true);
    await gate.complete(TOLD);
    probe.decide(false);
    await nextTurn();
    await gate.complete(TOLD);
    await gate.complete(TOLD);
    const corrected = [
      {
        role: "system",
        content: `You are an agent.\nBe brief.\n${SANDBOX_NETWORK_NOTICE_CORRECTIONS.networkOn}`,
      },
      { role: "user", content: "install left-pad" },
    ];
    expect(model.requests.map((request) => request.messages)).toEqual([
      TOLD.messages,
      corrected,
      corrected,
    ]);
    expect(model.requests[1]?.tools).toEqual(UNTOLD.tools);
    expect(SANDBOX_NETWORK_NOTICE_CORRECTIONS.networkOn).toBe(
      "Correction: earlier requests of this conversation said commands run in a sandbox with the network off. That was wrong: commands run on the host, where the network is on.",
    );
  });

  it("remembered 'on', the probe says the network is off: later requests add the line and say so", async () => {
    const model = new ScriptedModelClient([textReply("one"), textReply("two")]);
    const probe = decision();
    const gate = new NetworkNoticeGate(model, true, probe.promise, false);
    await gate.complete(TOLD);
    expect(model.requests[0]?.messages).toEqual(UNTOLD.messages);
    expect(model.requests[0]?.tools).toEqual(UNTOLD.tools);
    probe.decide(true);
    await nextTurn();
    await gate.complete(TOLD);
    expect(model.requests[1]?.messages).toEqual([
      {
        role: "system",
        content: `You are an agent.\n${SANDBOX_NETWORK_OFF_NOTICE}\nBe brief.\n${SANDBOX_NETWORK_NOTICE_CORRECTIONS.networkOff}`,
      },
      { role: "user", content: "install left-pad" },
    ]);
    expect(model.requests[1]?.tools).toEqual(TOLD.tools);
  });

  it("remembered: every request before the probe decides says what the memory says, none waits", async () => {
    const model = new ScriptedModelClient([textReply("one"), textReply("two"), textReply("three")]);
    const probe = decision();
    const gate = new NetworkNoticeGate(model, true, probe.promise, true);
    await gate.complete(TOLD);
    await gate.complete(TOLD);
    expect(model.requests.map((request) => request.messages)).toEqual([
      TOLD.messages,
      TOLD.messages,
    ]);
    probe.decide(false);
    await nextTurn();
    await gate.complete(TOLD);
    expect(model.requests[2]?.messages[0]).toEqual({
      role: "system",
      content: `You are an agent.\nBe brief.\n${SANDBOX_NETWORK_NOTICE_CORRECTIONS.networkOn}`,
    });
  });

  it("nothing remembered: the first request still waits for the probe", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    const probe = decision();
    const gate = new NetworkNoticeGate(model, true, probe.promise, undefined);
    const first = gate.complete(TOLD);
    expect(await settlesSoon(first)).toBe(false);
    expect(model.requests).toHaveLength(0);
    probe.decide(false);
    await first;
    expect(model.requests[0]?.messages).toEqual(UNTOLD.messages);
  });

  it("not told: a remembered verdict changes nothing", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    const gate = new NetworkNoticeGate(model, false, new Promise(() => undefined), true);
    await gate.complete(UNTOLD);
    expect(model.requests[0]?.messages).toEqual(UNTOLD.messages);
  });
});

describe("NetworkNoticeGate sends the same rewritten objects every turn", () => {
  /** Keeps each request as sent, objects and all. */
  function keepingModel(): { model: ModelClient; sent: ModelRequest[] } {
    const sent: ModelRequest[] = [];
    return {
      sent,
      model: {
        complete: (request) => {
          sent.push(request);
          return Promise.resolve(textReply("ok"));
        },
      },
    };
  }

  it("without the notice: the system message and tools rewritten once, not per request", async () => {
    const { model, sent } = keepingModel();
    const gate = new NetworkNoticeGate(model, true, Promise.resolve(false));
    await gate.complete(TOLD);
    await gate.complete({ ...TOLD, messages: [...TOLD.messages] });
    const [first, second] = sent;
    expect(first?.messages[0]).toEqual(UNTOLD.messages[0]);
    expect(second?.messages[0]).toBe(first?.messages[0]);
    expect(second?.tools[0]).toBe(first?.tools[0]);
    expect(first?.tools).toEqual(UNTOLD.tools);
  });

  it("with a correction: the corrected system message made once", async () => {
    const { model, sent } = keepingModel();
    const gate = new NetworkNoticeGate(model, true, Promise.resolve(true), false);
    await gate.complete(TOLD);
    await gate.complete(TOLD);
    await gate.complete(TOLD);
    const [remembered, second, third] = sent;
    expect(remembered?.messages[0]).toEqual(UNTOLD.messages[0]);
    expect(second?.messages[0]).toEqual({
      role: "system",
      content: `${TOLD.messages[0]?.content ?? ""}\n${SANDBOX_NETWORK_NOTICE_CORRECTIONS.networkOff}`,
    });
    expect(third?.messages[0]).toBe(second?.messages[0]);
  });

  it("with a correction and no system prompt: the note is one message, not a new one per request", async () => {
    // A new object at the front each request made the pairing check and the request body's kept
    // bytes read the whole history again every turn.
    const { model, sent } = keepingModel();
    const gate = new NetworkNoticeGate(model, true, Promise.resolve(false), true);
    const bare: ModelRequest = { ...TOLD, messages: TOLD.messages.slice(1) };
    await gate.complete(bare);
    await gate.complete(bare);
    await gate.complete({ ...bare, messages: [...bare.messages] });
    const [remembered, second, third] = sent;
    expect(remembered?.messages).toEqual(bare.messages);
    expect(second?.messages).toEqual([
      { role: "system", content: SANDBOX_NETWORK_NOTICE_CORRECTIONS.networkOn },
      ...bare.messages,
    ]);
    expect(third?.messages[0]).toBe(second?.messages[0]);
  });
});

/** The gate has seen a decision made just now (a few promise turns later). */
async function nextTurn(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}
