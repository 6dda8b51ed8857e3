import type { AnswerToken } from "../../adapters/state/index.js";
import type { CliIo } from "../cli-io.js";
import { defaultWorkspace } from "../args.js";
import { auditApprovalAnswer, DEFAULT_GRANT_TTL_MS, openApprovalStore } from "../../bootstrap.js";
import { parseTtl, TTL_TAKES } from "../subcommand-values.js";
import { resolveWorkspace } from "../settings/workspace.js";
import { EXIT } from "../exit-codes.js";
import { guarded, parseSubcommandArgs } from "../subcommand-args.js";
import { escapeForPrompt } from "../terminal/render/terminal-text.js";

/** `agent approve REQUEST_ID [--ttl 15m]`: one run of exactly that action, within the TTL. */
export function approveCommand(args: readonly string[], io: CliIo): Promise<number> {
  return answer(args, io, "approved");
}

/** `agent deny REQUEST_ID`: the waiting call, when tried again, gets a denial. */
export function denyCommand(args: readonly string[], io: CliIo): Promise<number> {
  return answer(args, io, "denied");
}

function answer(args: readonly string[], io: CliIo, kind: AnswerToken["answer"]): Promise<number> {
  return guarded(io, async () => {
    const word = kind === "approved" ? "approve" : "deny";
    const { values, positionals } = parseSubcommandArgs(
      word,
      args,
      kind === "approved"
        ? { ttl: { type: "string" }, "audit-log": { type: "string" } }
        : { "audit-log": { type: "string" } },
      { ttl: TTL_TAKES },
    );
    const [id, ...rest] = positionals;
    if (id === undefined || rest.length > 0) {
      throw new Error(
        `usage: agent ${word} REQUEST_ID${kind === "approved" ? " [--ttl 15m]" : ""}`,
      );
    }
    const ttlMs = values.ttl === undefined ? DEFAULT_GRANT_TTL_MS : parseTtl(values.ttl);
    const workspace = resolveWorkspace(values.workspace ?? defaultWorkspace(io.env, io.cwd));
    const store = openApprovalStore(workspace, values["state-dir"], io.env, io.platform);
    const by = `agent ${word} (${io.env.USER ?? "unknown user"})`;
    const token = kind === "approved" ? store.approve(id, ttlMs, by) : store.deny(id, by);
    const auditPath = values["audit-log"] ?? nonEmpty(io.env.AGENT_AUDIT_LOG);
    if (auditPath !== undefined) await auditApprovalAnswer(auditPath, token);
    io.stdout.write(
      `${escapeForPrompt(
        kind === "approved"
          ? `approved ${id}: one run of exactly that action, until ${token.expiresAt ?? "?"}`
          : `denied ${id}: the waiting call will be refused`,
      )}\n`,
    );
    return EXIT.ok;
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
