/**
 * `@path` in a person's message attaches that file's text to the message the model gets. Each
 * mention is the `read_file` call the model could have made, down the same path: the registry's
 * own `read_file` (its schema, the path rules, no link out of the workspace, regular files only,
 * its size cap, binary and invalid UTF-8 as it reports them) after the same policy (workspace
 * boundary, the person's rules, audit). Nobody is asked: a read that needs a question is not
 * attached, and the model can still ask with read_file. A file attached is part of the message
 * from then on, journaled with it, so a resumed run replays the same text and reads nothing again.
 */
import { PermissionDecision } from "../policy/permission-decision.js";
import { PermissionRequest } from "../policy/permission-request.js";
import type { PermissionPolicy } from "../policy/permissions.js";
import type { ToolRegistrySnapshot } from "../tools/tool-registry.js";
import { toolError, type ToolResult } from "../tools/tool-result.js";
import { parseMentions, type Mention } from "./mention-syntax.js";

/** What became of one mention, for the screen: one line each. */
export type MentionReport =
  | {
      readonly kind: "attached";
      readonly path: string;
      readonly lines: number;
      readonly bytes: number;
    }
  /** No such file (or the path is not one): the text stays as typed, nothing more. */
  | { readonly kind: "not_found"; readonly path: string; readonly reason: string }
  | { readonly kind: "refused"; readonly path: string; readonly reason: string };

export interface AttachedMessage {
  /** The message as the model gets it (and the journal keeps it): the text, then each file. */
  readonly content: string;
  readonly reports: readonly MentionReport[];
}

export interface MentionReader {
  readonly snapshot: ToolRegistrySnapshot;
  /** The run's policy, without its approver: every mention is decided, as every call is. */
  readonly policy: PermissionPolicy;
  readonly workspace?: string;
  readonly signal?: AbortSignal;
  /** A call id for each read's audit line, apart from every model call's. */
  readonly newCallId: () => string;
  /** Each mention's fate as soon as it is known: right under its read's audit line. */
  readonly onReport?: (report: MentionReport) => void;
}

/** What all the files attached to one message may hold together: read_file's own cap, once. */
export const MENTION_BYTES_LIMIT = 256 * 1024;
/**
 * At most this many mentions of one message are read (a pasted file full of `@decorators` must
 * not cost a read and two lines each); the rest stay text, said in one line.
 */
export const MENTION_COUNT_LIMIT = 20;

const READ_TOOL = "read_file";
const EMPTY_FILE = "[empty file]";

export async function attachMentions(
  text: string,
  reader: MentionReader,
): Promise<AttachedMessage> {
  const mentions = parseMentions(text);
  if (mentions.length === 0) return { content: text, reports: [] };
  const reports: MentionReport[] = [];
  const report = (found: MentionReport): void => {
    reports.push(found);
    reader.onReport?.(found);
  };
  const attachments: string[] = [];
  let bytes = 0;
  for (const [index, mention] of mentions.entries()) {
    if (index === MENTION_COUNT_LIMIT) {
      const rest = mentions.length - index;
      report(
        refused(
          mention,
          `more than ${MENTION_COUNT_LIMIT} mentions in one message: this one and the ` +
            `${rest - 1} after it are not read`,
        ),
      );
      break;
    }
    const read = await readMention(mention, reader);
    if (read.isError) {
      report(failedRead(mention, read));
      continue;
    }
    const size = utf8Bytes(read.content);
    if (bytes + size > MENTION_BYTES_LIMIT) {
      report(
        refused(
          mention,
          `${size} bytes would take this message's attachments past ${MENTION_BYTES_LIMIT} bytes`,
        ),
      );
      continue;
    }
    bytes += size;
    const lines = lineCount(read.content);
    attachments.push(attachment(mention.path, read.content, lines));
    // read_file's word for a file with nothing in it; the screen says what the file holds.
    const empty = read.content === EMPTY_FILE;
    report({
      kind: "attached",
      path: mention.path,
      lines: empty ? 0 : lines,
      bytes: empty ? 0 : size,
    });
  }
  const content = attachments.length === 0 ? text : [text, ...attachments].join("\n\n");
  return { content, reports };
}

/** The registry's read_file, after the policy, as for a call of the model's (never a prompt). */
async function readMention(mention: Mention, reader: MentionReader): Promise<ToolResult> {
  const { snapshot, policy } = reader;
  if (snapshot.effectOf(READ_TOOL) !== "read") {
    return toolError("unknown_tool", "this run has no read_file tool (chapter 1)");
  }
  const prepared = snapshot.prepare({
    id: reader.newCallId(),
    name: READ_TOOL,
    arguments: JSON.stringify({ path: mention.path }),
  });
  if (!prepared.ok) return prepared.result;
  let decision: unknown;
  try {
    decision = await policy.decide(new PermissionRequest(prepared.call));
  } catch {
    return toolError("permission_evaluation_error", "the permission check failed");
  }
  if (!PermissionDecision.isDecision(decision) || decision.behavior !== "allow") {
    const reason = PermissionDecision.isDecision(decision) ? decision.reason : "no decision";
    return toolError("permission_denied", reason);
  }
  const { workspace, signal } = reader;
  return snapshot.invoke(prepared.call, {
    ...(workspace === undefined ? {} : { workspace }),
    ...(signal === undefined ? {} : { signal }),
  });
}

function failedRead(mention: Mention, read: ToolResult): MentionReport {
  const reason = read.content.replace(/^Error \[[^\]]*\]: /u, "");
  return read.errorCode === "file_not_found"
    ? { kind: "not_found", path: mention.path, reason }
    : refused(mention, `${read.errorCode ?? "error"}: ${reason}`);
}

function refused(mention: Mention, reason: string): MentionReport {
  return { kind: "refused", path: mention.path, reason };
}

/**
 * One file as the model reads it: a line naming it, then its text exactly as read_file returns
 * it, fenced by more backticks than any run in the text, so no line of the file can end it.
 */
function attachment(path: string, text: string, lines: number): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/gu)].map((run) => run[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  const size = `${lines} ${lines === 1 ? "line" : "lines"}`;
  return `${ATTACHED}${path} (${size}) as read_file returns it:\n${fence}\n${text.replace(/\n$/u, "")}\n${fence}`;
}

/** How each attachment begins, after the blank line that ends the text before it. */
const ATTACHED = "Attached by the person, the text of ";

/**
 * The person's own words of a message, without the files its mentions attached: what a list of
 * runs shows of a prompt (the journal keeps the whole message, which the model read).
 */
export function typedPart(message: string): string {
  const at = message.indexOf(`\n\n${ATTACHED}`);
  return at === -1 ? message : message.slice(0, at);
}

/** A final newline ends the last line; it does not start another. */
function lineCount(text: string): number {
  return text === "" ? 0 : text.replace(/\n$/u, "").split("\n").length;
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}
