import type { CliIo } from "../cli-io.js";
import { defaultWorkspace } from "../args.js";
import { openApprovalStore } from "../../bootstrap.js";
import { resolveWorkspace } from "../settings/workspace.js";
import { EXIT } from "../exit-codes.js";
import { guarded, parseSubcommandArgs } from "../subcommand-args.js";
import { requestLines } from "../terminal/approval/p04-request-text.js";
import { escapeForPrompt } from "../terminal/render/terminal-text.js";

/**
 * `agent approvals [--workspace DIR] [--json]`: the requests of this workspace still waiting for an
 * answer; with `--json`, one JSON array of them (docs/output-format.md).
 */
export function approvalsCommand(args: readonly string[], io: CliIo): Promise<number> {
  return guarded(io, () => {
    const json = args.includes("--json");
    const { values, positionals } = parseSubcommandArgs(
      "approvals",
      args.filter((arg) => arg !== "--json"),
    );
    if (positionals.length > 0) throw new Error("agent approvals takes no arguments");
    const workspace = resolveWorkspace(values.workspace ?? defaultWorkspace(io.env, io.cwd));
    const store = openApprovalStore(workspace, values["state-dir"], io.env, io.platform);
    const pending = store.pendingRequests();
    if (json) {
      io.stdout.write(`${JSON.stringify(pending)}\n`);
      return EXIT.ok;
    }
    if (pending.length === 0) {
      io.stdout.write(`no pending requests in ${escapeForPrompt(workspace)}\n`);
      return EXIT.ok;
    }
    for (const { request, runId, createdAt } of pending) {
      const { summary, script, risks } = requestLines(request, "risk: ");
      const lines = [
        escapeForPrompt(
          `${request.id} · asked ${createdAt} by run ${runId} · expires ${request.expiresAt}`,
        ),
        // Shown whole here, however long: this is where a request too long for a terminal's
        // question is read.
        ...[summary, ...script, ...risks].map((line) => `  ${line}`),
      ];
      io.stdout.write(`${lines.join("\n")}\n`);
    }
    return EXIT.ok;
  });
}
