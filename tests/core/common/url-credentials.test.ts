import { describe, expect, it } from "vitest";
import { maskUrlCredentials } from "../../../src/core/common/url-credentials.js";

describe("maskUrlCredentials", () => {
  it.each([
    ["http://user:hunter2secret@127.0.0.1:8080/v1", "http://***@127.0.0.1:8080/v1"],
    ["https://only-user@example.com", "https://***@example.com"],
    ["http://u:p@ss@host/v1?q=a@b", "http://***@host/v1?q=a@b"],
    ['"http://u:pw@host:99999/x" is not valid', '"http://***@host:99999/x" is not valid'],
    ["http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"],
    ["mail me at someone@example.com", "mail me at someone@example.com"],
  ])("%s -> %s", (text, shown) => {
    expect(maskUrlCredentials(text)).toBe(shown);
  });
});
