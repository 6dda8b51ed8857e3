import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/core/common/canonical-json.js";

describe("canonicalJson", () => {
  it("sorts keys at every depth, inside arrays too, and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }, 3], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1},3]},"b":1}',
    );
  });

  it("gives the same text whatever order the keys arrived in", () => {
    const first: unknown = JSON.parse(
      '{"path":"a.txt","content":"x","options":{"mode":1,"append":false}}',
    );
    const second: unknown = JSON.parse(
      '{"options":{"append":false,"mode":1},"content":"x","path":"a.txt"}',
    );
    expect(canonicalJson(first)).toBe(canonicalJson(second));
  });

  it("distinguishes values that differ", () => {
    expect(canonicalJson({ a: "1" })).not.toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it("orders keys by UTF-16 code unit, the same on every machine", () => {
    expect(canonicalJson({ b: 0, B: 0, é: 0, a: 0, "10": 0, "9": 0 })).toBe(
      '{"10":0,"9":0,"B":0,"a":0,"b":0,"é":0}',
    );
  });

  it("is the text JSON.parse reads back to an equal value", () => {
    const value = { z: [1, { b: "x", a: true }], "10": 2, "9": null };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });

  it("keeps a key named __proto__ as data instead of dropping it", () => {
    const withProto: unknown = JSON.parse('{"__proto__":{"a":1},"b":2}');
    expect(canonicalJson(withProto)).toBe('{"__proto__":{"a":1},"b":2}');
    expect(canonicalJson(withProto)).not.toBe(canonicalJson({ b: 2 }));
  });

  it("writes what JSON.stringify writes for toJSON, undefined members and NaN", () => {
    expect(canonicalJson({ when: new Date(0), gone: undefined, list: [undefined, NaN] })).toBe(
      '{"list":[null,null],"when":"1970-01-01T00:00:00.000Z"}',
    );
  });

  it("escapes strings exactly as JSON does", () => {
    expect(canonicalJson({ text: 'a"b\\c\n\u001b\u2028' })).toBe(
      '{"text":"a\\"b\\\\c\\n\\u001b\u2028"}',
    );
  });

  it.each([
    ["undefined", undefined],
    ["a function", () => 1],
  ])("throws for %s, which has no JSON text", (_name, value) => {
    expect(() => canonicalJson(value)).toThrow(new TypeError("Value has no JSON representation"));
  });

  it("throws for a cycle and a bigint instead of hashing something else", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });
});
