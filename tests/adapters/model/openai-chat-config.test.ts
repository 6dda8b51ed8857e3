import { describe, expect, it } from "vitest";
import {
  DEFAULT_BASE_URL,
  DEFAULT_MODEL,
  LOCAL_SERVER_PLACEHOLDER_KEY,
  ModelConfigError,
  resolveOpenAIConfig,
  type Environment,
  type OpenAIConfig,
  type OpenAIConfigFlags,
} from "../../../src/adapters/model/openai-chat.js";

describe("resolveOpenAIConfig", () => {
  it.each<[string, Environment, OpenAIConfigFlags, OpenAIConfig]>([
    [
      "the key and defaults",
      { OPENAI_API_KEY: "sk-1" },
      {},
      { apiKey: "sk-1", baseURL: DEFAULT_BASE_URL, model: DEFAULT_MODEL },
    ],
    [
      "OPENAI_MODEL over the default",
      { OPENAI_API_KEY: "sk-1", OPENAI_MODEL: "gpt-4.1" },
      {},
      { apiKey: "sk-1", baseURL: DEFAULT_BASE_URL, model: "gpt-4.1" },
    ],
    [
      "--model over OPENAI_MODEL",
      { OPENAI_API_KEY: "sk-1", OPENAI_MODEL: "gpt-4.1" },
      { model: "o4-mini" },
      { apiKey: "sk-1", baseURL: DEFAULT_BASE_URL, model: "o4-mini" },
    ],
    [
      "a blank OPENAI_MODEL as unset, and trimmed values",
      { OPENAI_API_KEY: " sk-1\n", OPENAI_MODEL: "  " },
      { model: undefined },
      { apiKey: "sk-1", baseURL: DEFAULT_BASE_URL, model: DEFAULT_MODEL },
    ],
    [
      "a local server without a key, with the placeholder key",
      { OPENAI_BASE_URL: "http://localhost:11434/v1", OPENAI_API_KEY: "" },
      { model: "llama3.1" },
      {
        apiKey: LOCAL_SERVER_PLACEHOLDER_KEY,
        baseURL: "http://localhost:11434/v1",
        model: "llama3.1",
      },
    ],
    [
      "a local server with a key",
      { OPENAI_BASE_URL: "http://127.0.0.1:8000/v1", OPENAI_API_KEY: "vllm-key" },
      {},
      { apiKey: "vllm-key", baseURL: "http://127.0.0.1:8000/v1", model: DEFAULT_MODEL },
    ],
    [
      "organization and project",
      { OPENAI_API_KEY: "sk-1", OPENAI_ORG_ID: "org-1", OPENAI_PROJECT_ID: "proj_1" },
      {},
      {
        apiKey: "sk-1",
        baseURL: DEFAULT_BASE_URL,
        model: DEFAULT_MODEL,
        organization: "org-1",
        project: "proj_1",
      },
    ],
  ])("reads %s", (_name, env, flags, expected) => {
    expect(resolveOpenAIConfig(env, flags)).toEqual(expected);
  });

  it.each<[string, Environment, OpenAIConfigFlags, string]>([
    [
      "a missing key for the official API, from a POSIX shell",
      {},
      { platform: "linux" },
      "OPENAI_API_KEY is not set: set your OpenAI API key (export OPENAI_API_KEY=sk-...), or set OPENAI_BASE_URL to a local OpenAI-compatible server",
    ],
    [
      "a missing key when OPENAI_BASE_URL is the official API",
      { OPENAI_BASE_URL: "https://api.openai.com/v1" },
      {},
      "OPENAI_API_KEY is not set: set your OpenAI API key (export OPENAI_API_KEY=sk-...), or set OPENAI_BASE_URL to a local OpenAI-compatible server",
    ],
    [
      "a missing key on Windows, in PowerShell syntax",
      {},
      { platform: "win32" },
      'OPENAI_API_KEY is not set: set your OpenAI API key ($env:OPENAI_API_KEY = "sk-..."), or set OPENAI_BASE_URL to a local OpenAI-compatible server',
    ],
    [
      "a missing key when pwsh started the agent (it sets PSModulePath for its children)",
      { PSModulePath: "/root/.local/share/powershell/Modules" },
      { platform: "linux" },
      'OPENAI_API_KEY is not set: set your OpenAI API key ($env:OPENAI_API_KEY = "sk-..."), or set OPENAI_BASE_URL to a local OpenAI-compatible server',
    ],
    [
      "a key with inner whitespace",
      { OPENAI_API_KEY: "sk-1 sk-2" },
      {},
      "OPENAI_API_KEY contains whitespace or control characters",
    ],
    ["an empty --model", { OPENAI_API_KEY: "sk-1" }, { model: " " }, "--model must not be empty"],
    [
      "a base URL that is not a URL",
      { OPENAI_BASE_URL: "localhost:11434" },
      {},
      'OPENAI_BASE_URL must start with http:// or https://, got "localhost:"',
    ],
    [
      "a base URL that does not parse",
      { OPENAI_BASE_URL: "not a url" },
      {},
      'OPENAI_BASE_URL is not a valid URL: "not a url"',
    ],
    [
      "a base URL with credentials",
      { OPENAI_BASE_URL: "http://me:pw@localhost:8080/v1" },
      {},
      "OPENAI_BASE_URL must not contain a user name or password",
    ],
  ])("rejects %s with a one-line ModelConfigError", (_name, env, flags, message) => {
    const error = errorOf(() => resolveOpenAIConfig(env, flags));
    expect(error).toBeInstanceOf(ModelConfigError);
    expect(error).toHaveProperty("name", "ModelConfigError");
    expect(error).toHaveProperty("message", message);
  });

  it("never echoes the key in its errors", () => {
    const error = errorOf(() => resolveOpenAIConfig({ OPENAI_API_KEY: "sk-secret\u0007tail" }));
    expect(error).toHaveProperty(
      "message",
      "OPENAI_API_KEY contains whitespace or control characters",
    );
    expect(String(error)).not.toContain("sk-secret");
  });
});

function errorOf(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return new Error("expected an error");
}
