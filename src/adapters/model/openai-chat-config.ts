/**
 * Where the OpenAI adapter's settings come from. Pure: the caller passes the environment and flags,
 * so the CLI decides when to read `process.env` and tests pass plain objects.
 */

import { maskUrlCredentials } from "../../core/common/url-credentials.js";
import { ModelConfigError } from "./model-config-error.js";

export { ModelConfigError };

/**
 * Small, inexpensive, reliable at tool calling and served by the public OpenAI API; override with
 * `--model` or `OPENAI_MODEL` (local servers need their own model name, e.g. `llama3.1`).
 */
export const DEFAULT_MODEL = "gpt-4.1-mini";

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/**
 * Sent as the bearer token when OPENAI_BASE_URL points at a server other than api.openai.com and no
 * key is set. Ollama, LM Studio, llama.cpp and vLLM (without `--api-key`) ignore the header, but the
 * SDK refuses to build a client without one. A server that does check keys answers 401, which the
 * adapter reports as "check OPENAI_API_KEY".
 */
export const LOCAL_SERVER_PLACEHOLDER_KEY = "no-key-required";

export interface OpenAIConfig {
  readonly apiKey: string;
  readonly baseURL: string;
  readonly model: string;
  /** OPENAI_ORG_ID and OPENAI_PROJECT_ID, for accounts that belong to several. */
  readonly organization?: string;
  readonly project?: string;
}

export interface OpenAIConfigFlags {
  /** `--model`, which wins over OPENAI_MODEL. */
  readonly model?: string | undefined;
  /** Where the agent runs: on Windows the missing-key message is written for PowerShell. */
  readonly platform?: NodeJS.Platform;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Rules:
 * - model: `--model`, else OPENAI_MODEL, else DEFAULT_MODEL. An empty `--model` is an error; an
 *   empty OPENAI_MODEL counts as unset (a blank line in an env file is common).
 * - baseURL: OPENAI_BASE_URL (must be http or https), else DEFAULT_BASE_URL.
 * - apiKey: OPENAI_API_KEY (trimmed). When it is unset or blank and OPENAI_BASE_URL names a host
 *   other than api.openai.com, LOCAL_SERVER_PLACEHOLDER_KEY, because local OpenAI-compatible servers
 *   need no key. Otherwise a ModelConfigError: the official API always needs one.
 */
export function resolveOpenAIConfig(env: Environment, flags: OpenAIConfigFlags = {}): OpenAIConfig {
  const model = resolveModel(env, flags);
  const customBaseURL = nonBlank(env.OPENAI_BASE_URL);
  const baseURL = customBaseURL === undefined ? DEFAULT_BASE_URL : checkedBaseURL(customBaseURL);
  const apiKey = resolveApiKey(env, baseURL, flags.platform);
  const organization = nonBlank(env.OPENAI_ORG_ID);
  const project = nonBlank(env.OPENAI_PROJECT_ID);
  return {
    apiKey,
    baseURL,
    model,
    ...(organization === undefined ? {} : { organization }),
    ...(project === undefined ? {} : { project }),
  };
}

function resolveModel(env: Environment, flags: OpenAIConfigFlags): string {
  if (flags.model !== undefined) {
    const model = nonBlank(flags.model);
    if (model === undefined) throw new ModelConfigError("--model must not be empty");
    return model;
  }
  return nonBlank(env.OPENAI_MODEL) ?? DEFAULT_MODEL;
}

function checkedBaseURL(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ModelConfigError(
      `OPENAI_BASE_URL is not a valid URL: ${JSON.stringify(maskUrlCredentials(value))}`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ModelConfigError(
      `OPENAI_BASE_URL must start with http:// or https://, got ${JSON.stringify(url.protocol)}`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    // fetch refuses such URLs, and would echo the password in its error.
    throw new ModelConfigError("OPENAI_BASE_URL must not contain a user name or password");
  }
  return value;
}

function resolveApiKey(
  env: Environment,
  baseURL: string,
  platform: NodeJS.Platform | undefined,
): string {
  const key = nonBlank(env.OPENAI_API_KEY);
  if (key !== undefined) {
    // A key with inner whitespace or control characters cannot be a header value; say so without
    // echoing it.
    if (/[\s\p{Cc}]/u.test(key)) {
      throw new ModelConfigError("OPENAI_API_KEY contains whitespace or control characters");
    }
    return key;
  }
  if (new URL(baseURL).hostname !== new URL(DEFAULT_BASE_URL).hostname) {
    return LOCAL_SERVER_PLACEHOLDER_KEY;
  }
  throw new ModelConfigError(
    `OPENAI_API_KEY is not set: set your OpenAI API key (${setApiKeyCommand(env, platform)}), or set OPENAI_BASE_URL to a local OpenAI-compatible server`,
  );
}

/**
 * What the person types to set the key, in the syntax of the shell they started the agent from:
 * PowerShell on Windows, or wherever pwsh is the parent (pwsh puts PSModulePath into the
 * environment of every program it starts, on every OS, and npm passes it on); POSIX otherwise.
 */
export function setApiKeyCommand(env: Environment, platform: NodeJS.Platform | undefined): string {
  return platform === "win32" || nonBlank(env.PSModulePath) !== undefined
    ? '$env:OPENAI_API_KEY = "sk-..."'
    : "export OPENAI_API_KEY=sk-...";
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
