import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import {
  mkdtemp,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  truncate,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ModelConfigError } from "../../../src/adapters/model/model-config-error.js";
import { OpenAIChatModelClient } from "../../../src/adapters/model/openai-chat.js";
import { RecordingModelClient } from "../../../src/adapters/model/recording-model.js";
import { REPLAY_LIMIT_BYTES, ReplayModelClient } from "../../../src/adapters/model/replay-model.js";
import { ModelProviderError, RunCancelledError } from "../../../src/core/common/agent-errors.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import type { Message } from "../../../src/core/ports/messages.js";
import type {
  ModelClient,
  ModelReply,
  ModelRequest,
  ModelToolSpec,
} from "../../../src/core/ports/model.js";
import { defineTool } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import {
  ChatCompletionsServer,
  chatStreamToolCallsReply,
  chatTextReply,
  chatToolCallsReply,
  chatUsage,
} from "../../support/chat-completions-server.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";
import { allowEveryCall } from "../../support/permission-fakes.js";

const API_KEY = "sk-test-NEVER-WRITTEN-42";

let dir: string;
let server: ChatCompletionsServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(await realpath(tmpdir()), "record-replay-"));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function echoRegistry(): ToolRegistry {
  return new ToolRegistry([
    defineTool({
      name: "echo",
      description: "Echo text back",
      effect: "read",
      schema: z.strictObject({ text: z.string() }),
      handler: ({ text }) => Promise.resolve(toolSuccess(`echo: ${text}`)),
    }),
  ]);
}

const ECHO_SPEC: ModelToolSpec = {
  name: "echo",
  description: "Echo text back",
  parameters: { type: "object" },
};

const PROMPT: Message[] = [{ role: "user", content: "Say hi." }];

function exchangeLine(messages: Message[], reply: ModelReply, tools = [ECHO_SPEC]): string {
  return JSON.stringify({ request: { messages, tools }, reply });
}

function errorOf(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return new Error("expected an error");
}

/** The operating system's own wording for a failure, which differs between platforms. */
function osReason(action: () => unknown): string {
  const error = errorOf(action);
  return error instanceof Error ? error.message : "no error";
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error("expected a rejection"),
    (reason: unknown) => reason,
  );
}

describe("RecordingModelClient", () => {
  it("records a real run line by line, never the key, and replay reproduces it offline", async () => {
    server = await ChatCompletionsServer.start([
      chatToolCallsReply([{ id: "call_1", name: "echo", arguments: '{"text": "hi"}' }], {
        usage: chatUsage(10, 5),
      }),
      chatTextReply("Done: hi", { usage: chatUsage(20, 3) }),
    ]);
    const path = join(dir, "session.jsonl");
    const live = new OpenAIChatModelClient({
      apiKey: API_KEY,
      model: "m",
      baseURL: server.baseURL,
      maxRetries: 0,
    });
    const recorded = await new AgentRunner({
      policy: allowEveryCall(),
      model: new RecordingModelClient(live, path),
      registry: echoRegistry(),
      maxTurns: 5,
      // A fixed clock: the outcomes' durations are the only part of a run that is not replayed.
      now: () => 0,
    }).run("Say hi.");

    const text = await readFile(path, "utf8");
    expect(text).not.toContain(API_KEY);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    const parameters = {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    };
    const tools = [{ name: "echo", description: "Echo text back", parameters }];
    const toolCall = { id: "call_1", name: "echo", arguments: '{"text": "hi"}' };
    expect(lines.slice(0, 2).map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        request: { messages: [{ role: "user", content: "Say hi." }], tools },
        reply: {
          message: { role: "assistant", content: null, toolCalls: [toolCall] },
          finishReason: "tool_calls",
          usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
        },
      },
      {
        request: {
          messages: [
            { role: "user", content: "Say hi." },
            { role: "assistant", content: null, toolCalls: [toolCall] },
            { role: "tool", toolCallId: "call_1", content: "echo: hi" },
          ],
          tools,
        },
        reply: {
          message: { role: "assistant", content: "Done: hi", toolCalls: [] },
          finishReason: "stop",
          usage: { promptTokens: 20, completionTokens: 3, totalTokens: 23 },
        },
      },
    ]);

    const replay = ReplayModelClient.fromFile(path);
    const replayed = await new AgentRunner({
      policy: allowEveryCall(),
      model: replay,
      registry: echoRegistry(),
      maxTurns: 5,
      // A fixed clock: the outcomes' durations are the only part of a run that is not replayed.
      now: () => 0,
    }).run("Say hi.");
    expect(replayed).toEqual(recorded);
    expect(replayed.finalText).toBe("Done: hi");
    expect(replay.remaining).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it("records a streamed reply as the whole reply, the same line a JSON reply gives", async () => {
    server = await ChatCompletionsServer.start([
      chatStreamToolCallsReply([{ id: "call_1", name: "echo", arguments: '{"text": "hi"}' }], {
        content: ["On ", "it."],
        usage: chatUsage(10, 5),
      }),
    ]);
    const path = join(dir, "streamed.jsonl");
    const live = new OpenAIChatModelClient({
      apiKey: API_KEY,
      model: "m",
      baseURL: server.baseURL,
      maxRetries: 0,
    });
    const shown: string[] = [];
    await new RecordingModelClient(live, path).complete({
      messages: PROMPT,
      tools: [ECHO_SPEC],
      onTextDelta: (text) => shown.push(text),
    });
    expect(shown).toEqual(["On ", "it."]);
    const line = JSON.parse((await readFile(path, "utf8")).trimEnd()) as unknown;
    expect(line).toEqual({
      request: { messages: PROMPT, tools: [ECHO_SPEC] },
      reply: {
        message: {
          role: "assistant",
          content: "On it.",
          toolCalls: [{ id: "call_1", name: "echo", arguments: '{"text": "hi"}' }],
        },
        finishReason: "tool_calls",
        usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      },
    });
  });

  it("creates the file empty, replacing an older recording", async () => {
    const path = join(dir, "old.jsonl");
    await writeFile(path, "stale line\n");
    new RecordingModelClient(new ScriptedModelClient([]), path);
    expect(await readFile(path, "utf8")).toBe("");
  });

  it.skipIf(process.platform === "win32")(
    "creates the file owner-only, an older recording's mode included (POSIX only: permission bits)",
    async () => {
      const path = join(dir, "old.jsonl");
      await writeFile(path, "stale line\n", { mode: 0o644 });
      new RecordingModelClient(new ScriptedModelClient([]), path);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    },
  );

  it("records nothing for a failed request and passes the failure on", async () => {
    const path = join(dir, "failed.jsonl");
    const failing: ModelClient = {
      complete: () => Promise.reject(new ModelProviderError("boom")),
    };
    const error = await rejectionOf(
      new RecordingModelClient(failing, path).complete({ messages: PROMPT, tools: [] }),
    );
    expect(error).toEqual(new ModelProviderError("boom"));
    expect(await readFile(path, "utf8")).toBe("");
  });

  it("passes the request, signal included, to the wrapped client", async () => {
    const inner = new ScriptedModelClient([textReply("hi")]);
    const signal = new AbortController().signal;
    await new RecordingModelClient(inner, join(dir, "s.jsonl")).complete({
      messages: PROMPT,
      tools: [ECHO_SPEC],
      signal,
    });
    expect(inner.requests).toEqual([{ messages: PROMPT, tools: [ECHO_SPEC], signal }]);
  });

  it("fails at construction when the file cannot be created", () => {
    const path = join(dir, "missing", "session.jsonl");
    const error = errorOf(() => new RecordingModelClient(new ScriptedModelClient([]), path));
    expect(error).toBeInstanceOf(ModelConfigError);
    expect(error).toHaveProperty(
      "message",
      `Cannot create the recording file ${path}: ${osReason(() => {
        writeFileSync(path, "");
      })}`,
    );
    expect(
      osReason(() => {
        writeFileSync(path, "");
      }),
    ).toMatch(/^ENOENT: /);
  });

  it.skipIf(process.platform === "win32")(
    "keeps writing to the file it opened when the name is swapped for a link (POSIX only)",
    async () => {
      const path = join(dir, "session.jsonl");
      const recorder = new RecordingModelClient(
        new ScriptedModelClient([textReply("one"), textReply("two")]),
        path,
      );
      await recorder.complete({ messages: PROMPT, tools: [] });
      const original = join(dir, "moved.jsonl");
      await rename(path, original);
      const victim = join(dir, "victim.sh");
      await writeFile(victim, "echo safe\n");
      await symlink(victim, path);

      await recorder.complete({ messages: PROMPT, tools: [] });

      expect(await readFile(victim, "utf8")).toBe("echo safe\n");
      expect((await readFile(original, "utf8")).trimEnd().split("\n")).toHaveLength(2);
      expect(recorder.realPath).toBe(path);
    },
  );

  it.skipIf(process.platform === "win32")(
    "refuses a symbolic link, a FIFO and a device at construction, touching nothing (POSIX only)",
    async () => {
      const victim = join(dir, "victim.sh");
      await writeFile(victim, "echo safe\n");
      const link = join(dir, "link.jsonl");
      await symlink(victim, link);
      const fifo = join(dir, "session.fifo");
      execFileSync("mkfifo", [fifo]);
      const build = (path: string) => () =>
        new RecordingModelClient(new ScriptedModelClient([]), path);
      expect(errorOf(build(link))).toEqual(
        new ModelConfigError(
          `Cannot create the recording file ${link}: it is a symbolic link; the harness does not follow links for its own files`,
        ),
      );
      expect(errorOf(build(fifo))).toEqual(
        new ModelConfigError(
          `Cannot create the recording file ${fifo}: it is a FIFO or socket; the harness only uses a regular file`,
        ),
      );
      expect(errorOf(build("/dev/null"))).toEqual(
        new ModelConfigError(
          "Cannot create the recording file /dev/null: it is a device; the harness only uses a regular file",
        ),
      );
      expect(await readFile(victim, "utf8")).toBe("echo safe\n");
    },
  );
});

describe("ReplayModelClient", () => {
  const first = toolCallReply([{ id: "c1", name: "echo", arguments: { text: "x" } }]);
  const afterFirst: Message[] = [
    ...PROMPT,
    first.message,
    { role: "tool", toolCallId: "c1", content: "echo: x" },
  ];
  const second = textReply("bye", { promptTokens: 1, completionTokens: 2, totalTokens: 3 });
  const file = `${exchangeLine(PROMPT, first)}\n${exchangeLine(afterFirst, second)}\n`;

  function request(messages: Message[], tools = [ECHO_SPEC]): ModelRequest {
    return { messages, tools };
  }

  it("serves recorded replies in order for matching requests, whatever the key order", async () => {
    const replay = ReplayModelClient.fromJsonl(file);
    expect(await replay.complete(request(PROMPT))).toEqual(first);
    const reordered: Message[] = [
      { content: "Say hi.", role: "user" },
      {
        toolCalls: [{ arguments: '{"text":"x"}', name: "echo", id: "c1" }],
        content: null,
        role: "assistant",
      },
      { content: "echo: x", toolCallId: "c1", role: "tool" },
    ];
    expect(await replay.complete(request(reordered))).toEqual(second);
    expect(replay.remaining).toBe(0);
  });

  it("passes each recorded text on whole, as a server that does not stream would", async () => {
    const replay = ReplayModelClient.fromJsonl(file);
    const shown: string[] = [];
    const onTextDelta = (text: string): void => {
      shown.push(text);
    };
    await replay.complete({ ...request(PROMPT), onTextDelta });
    await replay.complete({ ...request(afterFirst), onTextDelta });
    expect(shown).toEqual(["bye"]);
  });

  it("fails loudly when replies run out", async () => {
    const replay = ReplayModelClient.fromJsonl(`${exchangeLine(PROMPT, second)}\n`);
    await replay.complete(request(PROMPT));
    const error = await rejectionOf(replay.complete(request(PROMPT)));
    expect(error).toBeInstanceOf(ModelProviderError);
    expect(error).toHaveProperty(
      "message",
      "Replay ran out of replies: request 2 has no recording (the file holds 1)",
    );
  });

  it("fails loudly when a message differs, showing where", async () => {
    const replay = ReplayModelClient.fromJsonl(file);
    await replay.complete(request(PROMPT));
    const changed: Message[] = [
      ...afterFirst.slice(0, 2),
      { role: "tool", toolCallId: "c1", content: "echo: y" },
    ];
    const error = await rejectionOf(replay.complete(request(changed)));
    expect(error).toBeInstanceOf(ModelProviderError);
    expect(error).toHaveProperty(
      "message",
      'Replay diverged at exchange 2: message 2 differs (recorded {"content":"echo: x","role":"tool","toolCallId":"c1"}, requested {"content":"echo: y","role":"tool","toolCallId":"c1"})',
    );
    expect(replay.remaining).toBe(1);
  });

  it("lenient replay accepts other tool results and system prompts, nothing else", async () => {
    const withSystem: Message[] = [{ role: "system", content: "Shell: bash" }, ...PROMPT];
    const recorded = `${exchangeLine(withSystem, first)}\n${exchangeLine(
      [...withSystem, first.message, { role: "tool", toolCallId: "c1", content: "echo: x" }],
      second,
    )}\n`;
    const otherSystem: Message = { role: "system", content: "Shell: PowerShell 7" };
    const otherMachine: Message[] = [otherSystem, ...PROMPT];
    const denied: Message[] = [
      ...otherMachine,
      first.message,
      { role: "tool", toolCallId: "c1", content: "Error [permission_denied]: User denied" },
    ];

    const lenient = ReplayModelClient.fromJsonl(recorded, "Replay file", { lenient: true });
    expect(await lenient.complete(request(otherMachine))).toEqual(first);
    expect(await lenient.complete(request(denied))).toEqual(second);

    const strict = ReplayModelClient.fromJsonl(recorded);
    const error = await rejectionOf(strict.complete(request(otherMachine)));
    expect(error).toHaveProperty(
      "message",
      'Replay diverged at exchange 1: message 0 differs (recorded {"content":"Shell: bash","role":"system"}, requested {"content":"Shell: PowerShell 7","role":"system"})',
    );

    const stillChecked = ReplayModelClient.fromJsonl(recorded, "Replay file", { lenient: true });
    const otherPrompt: Message[] = [otherSystem, { role: "user", content: "Other" }];
    const promptError = await rejectionOf(stillChecked.complete(request(otherPrompt)));
    expect(promptError).toHaveProperty(
      "message",
      'Replay diverged at exchange 1: message 1 differs (recorded {"content":"Say hi.","role":"user"}, requested {"content":"Other","role":"user"})',
    );
  });

  it("shows the neighbourhood of a difference deep in a long message", async () => {
    const long = "a".repeat(300);
    const replay = ReplayModelClient.fromJsonl(
      exchangeLine([{ role: "user", content: `${long}X${long}` }], second),
    );
    const error = await rejectionOf(
      replay.complete(request([{ role: "user", content: `${long}Y${long}` }])),
    );
    const context = "a".repeat(30);
    const after = "a".repeat(89);
    expect(error).toHaveProperty(
      "message",
      `Replay diverged at exchange 1: message 0 differs (recorded …${context}X${after}…, requested …${context}Y${after}…)`,
    );
  });

  it("fails loudly when the conversation is longer than recorded", async () => {
    const replay = ReplayModelClient.fromJsonl(exchangeLine(PROMPT, second));
    const error = await rejectionOf(
      replay.complete(request([...PROMPT, { role: "user", content: "more" }])),
    );
    expect(error).toHaveProperty(
      "message",
      'Replay diverged at exchange 1: message 1 differs (recorded nothing, requested {"content":"more","role":"user"})',
    );
  });

  it("fails loudly when the tools offered differ", async () => {
    const replay = ReplayModelClient.fromJsonl(file);
    const error = await rejectionOf(
      replay.complete(request(PROMPT, [ECHO_SPEC, { ...ECHO_SPEC, name: "shell" }])),
    );
    expect(error).toBeInstanceOf(ModelProviderError);
    expect(error).toHaveProperty(
      "message",
      'Replay diverged at exchange 1: tools differ (recorded ["echo"], requested ["echo","shell"])',
    );
  });

  it("ignores tool descriptions and schemas, which may be reworded without re-recording", async () => {
    const replay = ReplayModelClient.fromJsonl(file);
    const reworded = {
      ...ECHO_SPEC,
      description: "Repeat text",
      parameters: { type: "object", x: 1 },
    };
    expect(await replay.complete(request(PROMPT, [reworded]))).toEqual(first);
  });

  it("hands out copies, so a caller cannot change the recording", async () => {
    const replay = ReplayModelClient.fromJsonl(
      `${exchangeLine(PROMPT, second)}\n${exchangeLine(PROMPT, second)}`,
    );
    const reply = await replay.complete(request(PROMPT));
    (reply.message.toolCalls as unknown[]).push("tampered");
    expect(await replay.complete(request(PROMPT))).toEqual(second);
  });

  it("turns an aborted signal into RunCancelledError without using a reply", async () => {
    const replay = ReplayModelClient.fromJsonl(file);
    const error = await rejectionOf(
      replay.complete({ ...request(PROMPT), signal: AbortSignal.abort() }),
    );
    expect(error).toEqual(new RunCancelledError());
    expect(replay.remaining).toBe(2);
  });

  it.each<[string, string, string]>([
    [
      "a line that is not JSON",
      `${exchangeLine(PROMPT, first)}\n{"request":`,
      "Replay file line 2: not valid JSON",
    ],
    [
      "a line that is not an exchange",
      "[1]",
      "Replay file line 1: (root): Invalid input: expected object, received array",
    ],
    [
      "an unknown finish reason",
      JSON.stringify({
        request: { messages: PROMPT, tools: [] },
        reply: { ...second, finishReason: "done" },
      }),
      'Replay file line 1: reply.finishReason: Invalid option: expected one of "stop"|"tool_calls"|"length"|"content_filter"|"other"',
    ],
    [
      "a tool call without id",
      `\n\n${exchangeLine(PROMPT, toolCallReply([{ id: "", name: "echo", arguments: "{}" }]))}`,
      "Replay file line 3: reply.message.toolCalls.0.id: Too small: expected string to have >=1 characters",
    ],
    [
      "an extra field",
      JSON.stringify({ request: { messages: PROMPT, tools: [] }, reply: second, apiKey: "x" }),
      'Replay file line 1: (root): Unrecognized key: "apiKey"',
    ],
    ["only blank lines", "\n \n", "Replay file holds no exchanges"],
  ])("rejects %s at load, naming the line", (_name, text, message) => {
    const error = errorOf(() => ReplayModelClient.fromJsonl(text));
    expect(error).toBeInstanceOf(ModelConfigError);
    expect(error).toHaveProperty("message", message);
  });

  it("names the file when loading from disk", async () => {
    const path = join(dir, "broken.jsonl");
    await writeFile(path, "nope\n");
    expect(errorOf(() => ReplayModelClient.fromFile(path))).toHaveProperty(
      "message",
      `Replay file ${path} line 1: not valid JSON`,
    );
    const missing = join(dir, "missing.jsonl");
    expect(errorOf(() => ReplayModelClient.fromFile(missing))).toHaveProperty(
      "message",
      `Cannot read the replay file ${missing}: ${osReason(() => readFileSync(missing))}`,
    );
  });

  it.skipIf(process.platform === "win32")(
    "reads only a regular file within the limit: a FIFO, /dev/zero, a link or a huge file fail at once (POSIX only)",
    async () => {
      const good = join(dir, "good.jsonl");
      await writeFile(good, `${exchangeLine(PROMPT, textReply("hi"))}\n`);
      const link = join(dir, "link.jsonl");
      await symlink(good, link);
      const fifo = join(dir, "replay.fifo");
      execFileSync("mkfifo", [fifo]);
      const huge = join(dir, "huge.jsonl");
      await writeFile(huge, "");
      await truncate(huge, REPLAY_LIMIT_BYTES + 1);
      const reason = (path: string): string => {
        const error = errorOf(() => ReplayModelClient.fromFile(path));
        return error instanceof ModelConfigError ? error.message : "not a ModelConfigError";
      };
      expect(reason(fifo)).toBe(
        `Cannot read the replay file ${fifo}: it is a FIFO; the harness only uses a regular file`,
      );
      expect(reason("/dev/zero")).toBe(
        "Cannot read the replay file /dev/zero: it is a device; the harness only uses a regular file",
      );
      expect(reason(link)).toBe(
        `Cannot read the replay file ${link}: it is a symbolic link; the harness does not follow links for its own files`,
      );
      expect(reason(huge)).toBe(
        `Cannot read the replay file ${huge}: it is over the ${REPLAY_LIMIT_BYTES}-byte limit`,
      );
      expect(ReplayModelClient.fromFile(good).remaining).toBe(1);
    },
  );
});
