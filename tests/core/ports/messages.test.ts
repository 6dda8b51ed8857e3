import { describe, expect, it } from "vitest";
import type { Message, ToolCall } from "../../../src/core/ports/messages.js";
import {
  ToolPairingCheck,
  ToolPairingError,
  validateToolPairing,
} from "../../../src/core/ports/messages.js";

function call(id: string): ToolCall {
  return { id, name: "shell", arguments: "{}" };
}

function assistant(...ids: string[]): Message {
  return { role: "assistant", content: null, toolCalls: ids.map(call) };
}

function tool(id: string): Message {
  return { role: "tool", toolCallId: id, content: "ok" };
}

const system: Message = { role: "system", content: "be brief" };
const user: Message = { role: "user", content: "hi" };
const answer: Message = { role: "assistant", content: "done", toolCalls: [] };

function pairingError(history: readonly Message[]): unknown {
  try {
    validateToolPairing(history);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("validateToolPairing accepts paired histories", () => {
  it.each<[string, Message[]]>([
    ["empty", []],
    ["system and user only", [system, user]],
    ["a final text answer", [user, answer]],
    ["one call answered", [user, assistant("a"), tool("a"), answer]],
    ["two calls answered in order", [user, assistant("a", "b"), tool("a"), tool("b"), answer]],
    [
      "several turns",
      [user, assistant("a"), tool("a"), assistant("b", "c"), tool("b"), tool("c"), user],
    ],
    ["an answered call at the very end", [user, assistant("a"), tool("a")]],
  ])("%s", (_label, history) => {
    expect(() => {
      validateToolPairing(history);
    }).not.toThrow();
  });
});

describe("validateToolPairing rejects broken histories with exact messages", () => {
  it.each<[string, Message[], string]>([
    [
      "a missing result at the end",
      [user, assistant("a")],
      'Missing tool result for call id "a" at index 2',
    ],
    [
      "a missing second result before the next user message",
      [user, assistant("a", "b"), tool("a"), user],
      'Missing tool result for call id "b" at index 3',
    ],
    [
      "a missing result before the next assistant message",
      [user, assistant("a"), answer],
      'Missing tool result for call id "a" at index 2',
    ],
    ["an orphan tool message", [user, tool("x")], 'Orphan tool message at index 1 for call id "x"'],
    [
      "an extra tool message after all calls were answered",
      [user, assistant("a"), tool("a"), tool("a")],
      'Orphan tool message at index 3 for call id "a"',
    ],
    [
      "an extra tool message with a new id",
      [user, assistant("a"), tool("a"), tool("b")],
      'Orphan tool message at index 3 for call id "b"',
    ],
    [
      "answers out of order",
      [user, assistant("a", "b"), tool("b"), tool("a")],
      'Tool result at index 2 answers "b", expected "a"',
    ],
    [
      "an answer to an unknown id",
      [user, assistant("a"), tool("z")],
      'Tool result at index 2 answers "z", expected "a"',
    ],
    [
      "duplicate ids in one message",
      [user, assistant("a", "a"), tool("a"), tool("a")],
      'Duplicate tool call id "a"',
    ],
    [
      "an id reused in a later turn",
      [user, assistant("a"), tool("a"), assistant("a"), tool("a")],
      'Duplicate tool call id "a"',
    ],
    [
      "a tool message after a user message interrupts the answers",
      [user, assistant("a"), user, tool("a")],
      'Missing tool result for call id "a" at index 2',
    ],
  ])("%s", (_label, history, message) => {
    const error = pairingError(history);
    expect(error).toBeInstanceOf(ToolPairingError);
    expect(error).toMatchObject({ name: "ToolPairingError", message });
  });
});

describe("ToolPairingCheck reads a growing history once and judges it as a whole would", () => {
  it("accepts a history turn by turn, reading only what each turn added", () => {
    const check = new ToolPairingCheck();
    const history: Message[] = [system, user];
    check.check(history);
    history.push(assistant("a", "b"), tool("a"), tool("b"));
    check.check(history);
    expect([...check.usedCallIds(history)]).toEqual(["a", "b"]);
    // A proxy counts the reads of the five messages already passed.
    const readCount = { reads: 0 };
    const watched = history.map((message) => message);
    const proxy = new Proxy(watched, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key) && Number(key) < 5) readCount.reads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    watched.push(assistant("c"), tool("c"));
    check.check(proxy);
    // Only the prefix identity comparison touches the old messages, once each.
    expect(readCount.reads).toBe(5);
    expect([...check.usedCallIds(watched)]).toEqual(["a", "b", "c"]);
  });

  it("refuses an id used before the new messages, with the whole check's words", () => {
    const check = new ToolPairingCheck();
    const history: Message[] = [user, assistant("a"), tool("a")];
    check.check(history);
    history.push(assistant("a"), tool("a"));
    const whole = pairingError(history);
    expect(() => {
      check.check(history);
    }).toThrow(whole);
    expect(String(whole)).toBe('ToolPairingError: Duplicate tool call id "a"');
  });

  it("starts over on a history that no longer begins with what it checked", () => {
    const check = new ToolPairingCheck();
    check.check([user, assistant("a"), tool("a")]);
    // Compacted: the call "a" is gone, so it may be used again, as a whole check would allow.
    const compacted: Message[] = [system, user, assistant("a"), tool("a")];
    check.check(compacted);
    expect([...check.usedCallIds(compacted)]).toEqual(["a"]);
    expect([...check.usedCallIds([user])]).toEqual([]);
  });

  it("keeps nothing of a history it refused", () => {
    const check = new ToolPairingCheck();
    const history: Message[] = [user, assistant("a")];
    expect(() => {
      check.check(history);
    }).toThrow('Missing tool result for call id "a" at index 2');
    history.push(tool("a"));
    check.check(history);
    expect([...check.usedCallIds(history)]).toEqual(["a"]);
  });
});
