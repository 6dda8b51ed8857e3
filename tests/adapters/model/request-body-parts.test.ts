import { describe, expect, it } from "vitest";
import { RequestBodyParts } from "../../../src/adapters/model/request-body-parts.js";

describe("RequestBodyParts", () => {
  const parts = [Buffer.from('{"a":'), Buffer.from("ünï"), Buffer.from("}")];

  it("holds no bytes of its own, and counts its parts' bytes as the body's length", () => {
    const body = new RequestBodyParts(parts);
    expect(ArrayBuffer.isView(body)).toBe(true);
    expect(body.byteLength).toBe(0);
    expect(body.totalBytes).toBe(5 + 5 + 1);
    expect(body.parts).toBe(parts);
  });

  it("joins its parts in order into the body", () => {
    expect(new RequestBodyParts(parts).joined().toString("utf8")).toBe('{"a":ünï}');
    expect(new RequestBodyParts([]).joined().length).toBe(0);
  });

  it("makes plain arrays, not bodies, when sliced or mapped", () => {
    const body = new RequestBodyParts(parts);
    expect(body.slice(0, 0)).not.toBeInstanceOf(RequestBodyParts);
    expect(body.map((byte) => byte)).not.toBeInstanceOf(RequestBodyParts);
    expect(body.subarray(0)).not.toBeInstanceOf(RequestBodyParts);
  });
});
