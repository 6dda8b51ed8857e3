/**
 * The journal's line format, checked on read: a record that does not have this shape is a journal
 * the harness did not write (or a newer one), and resume refuses it rather than guess.
 */
import { z } from "zod";
import { builtOnce } from "../../core/common/built-once.js";
import {
  JOURNAL_VERSION,
  UNDO_RESULTS,
  type StoredJournalRecord,
} from "../../core/journal/journal-records.js";
import { TOOL_EFFECTS } from "../../core/tools/tool-definition.js";

function buildJournalLineSchema() {
  const finalArguments = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

  const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
  const size = z.number().int().nonnegative();

  const toolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

  const outcome = z.object({
    callId: z.string(),
    tool: z.string(),
    executed: z.enum(["no", "yes", "unknown"]),
    status: z.enum([
      "ok",
      "unknown_tool",
      "invalid_arguments",
      "denied",
      "execution_failed",
      "timed_out",
      "cancelled",
      "unknown",
      "waiting",
    ]),
    boundary: z.enum(["visibility", "protocol", "policy", "confirmation", "execution"]),
    errorCode: z.string().optional(),
    exitCode: z.number().optional(),
    savedOutput: z.string().optional(),
    operationId: z.string().optional(),
    finalArguments: finalArguments.optional(),
    durationMs: z.number(),
    waitedMs: z.number().optional(),
    environment: z.string().optional(),
    decision: z.object({ source: z.string(), reason: z.string() }).optional(),
  });

  const message = z.discriminatedUnion("role", [
    z.object({ role: z.literal("system"), content: z.string() }),
    z.object({ role: z.literal("user"), content: z.string() }),
    z.object({
      role: z.literal("assistant"),
      content: z.string().nullable(),
      toolCalls: z.array(toolCall),
    }),
    z.object({ role: z.literal("tool"), toolCallId: z.string(), content: z.string() }),
  ]);

  const usage = z.object({
    promptTokens: z.number(),
    completionTokens: z.number(),
    totalTokens: z.number(),
  });

  /** Every line carries these; `run_started` also the run's context (not needed to replay). */
  const envelope = { v: z.literal(JOURNAL_VERSION), time: z.string() };

  return z.discriminatedUnion("type", [
    z.object({
      ...envelope,
      type: z.literal("run_started"),
      systemPrompt: z.string().optional(),
      prompt: z.string(),
      runId: z.string(),
      workspace: z.string(),
      chapter: z.number(),
      // The profile's id (`P03`, `daily`): a named profile is resumed as itself, not its chapter.
      profile: z.string().optional(),
      // What `agent resume` takes from the run; a journal written before they were kept has none.
      model: z.string().optional(),
      sandbox: z.string().optional(),
      network: z.boolean().optional(),
      // `--command-timeout` in ms: what the run's command calls bound and were killed after.
      commandTimeoutMs: z.number().optional(),
      // The SHA-256 of the AGENTS.md text loaded into the system prompt, when any was.
      instructionsDigest: z.string().optional(),
    }),
    z.object({ ...envelope, type: z.literal("user_message"), content: z.string() }),
    z.object({
      ...envelope,
      type: z.literal("model_reply"),
      message: z.object({
        role: z.literal("assistant"),
        content: z.string().nullable(),
        toolCalls: z.array(toolCall),
      }),
      usage: usage.optional(),
    }),
    z.object({
      ...envelope,
      type: z.literal("call_prepared"),
      callId: z.string(),
      tool: z.string(),
      canonicalArguments: z.string(),
    }),
    z.object({
      ...envelope,
      type: z.literal("decision"),
      callId: z.string(),
      behavior: z.string(),
      source: z.string(),
      reason: z.string(),
      scope: z.string().optional(),
    }),
    z.object({
      ...envelope,
      type: z.literal("execution_started"),
      callId: z.string(),
      tool: z.string(),
      effect: z.enum(TOOL_EFFECTS).optional(),
      remote: z.literal(true).optional(),
      beforeImages: z.literal(true).optional(),
      operationId: z.string().optional(),
      environment: z.string().optional(),
      finalArguments: finalArguments.optional(),
    }),
    z.object({
      ...envelope,
      type: z.literal("process_started"),
      callId: z.string(),
      operationId: z.string(),
      pid: z.number().int().positive(),
    }),
    z.object({
      ...envelope,
      type: z.literal("execution_finished"),
      callId: z.string(),
      outcome,
      content: z.string(),
    }),
    z.object({
      ...envelope,
      type: z.literal("file_before"),
      callId: z.string(),
      file: z.string(),
      existed: z.boolean(),
      beforeSha256: sha256.optional(),
      beforeSize: size.optional(),
      image: z.object({ offset: size, length: size }).optional(),
      notKept: z.string().optional(),
      afterSha256: sha256,
      afterSize: size,
      madeFolders: z.array(z.string()).optional(),
    }),
    z.object({
      ...envelope,
      type: z.literal("file_written"),
      callId: z.string(),
      file: z.string(),
      sha256,
    }),
    z.object({
      ...envelope,
      type: z.literal("call_undone"),
      callId: z.string(),
      occurrence: z.number().int().positive().optional(),
      tool: z.string(),
      result: z.enum(UNDO_RESULTS),
      detail: z.string(),
    }),
    z.object({
      ...envelope,
      type: z.literal("history_compacted"),
      reason: z.enum(["auto", "context_error", "command", "clear"]),
      messages: z.array(message),
    }),
    z.object({ ...envelope, type: z.literal("run_resumed") }),
    z.object({ ...envelope, type: z.literal("model_switched"), model: z.string() }),
    z.object({
      ...envelope,
      type: z.literal("run_grant"),
      action: z.enum(["granted", "revoked"]),
      grant: z.number().int().positive(),
      tool: z.string(),
      arguments: z.string(),
      environment: z.string().optional(),
      key: z.string().optional(),
    }),
    // Legacy: read from older journals, never written (journal-records.ts).
    z.object({ ...envelope, type: z.literal("conversation_cleared") }),
    z.object({ ...envelope, type: z.literal("run_finished"), finalText: z.string() }),
    z.object({ ...envelope, type: z.literal("run_failed"), error: z.string() }),
    z.object({ ...envelope, type: z.literal("run_cancelled") }),
    z.object({
      ...envelope,
      type: z.literal("run_waiting"),
      callId: z.string(),
      request: z.record(z.string(), z.unknown()),
    }),
  ]);
}

/** Built at the first journal read (`agent resume`, `agent runs`), not at start-up. */
export const journalLineSchema = builtOnce(buildJournalLineSchema);

export type JournalLine = z.infer<ReturnType<typeof buildJournalLineSchema>>;

/** What the loop replays: the line without its envelope and context (they stay in the file). */
export function recordOf(line: JournalLine): StoredJournalRecord {
  // The schema above mirrors JournalRecord field for field; the envelope fields are extra.
  return line;
}
