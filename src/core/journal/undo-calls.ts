/**
 * `/undo` and `agent undo`: takes back the file changes of the calls `planUndo` picked, newest
 * first, each write only where the file still holds exactly what the call wrote. A file someone
 * changed since is refused with the reason and left as it is; a command's effects cannot be
 * undone, and the undo says so. Each call's decision is journaled (call_undone) and audited after
 * its files were put back: a crash in between leaves it to the next undo, which finds the files
 * as they were before the call and takes nothing twice.
 */
import { firstLineOfError, oneLine } from "../common/one-line.js";
import type { CurrentFile, WorkspaceRestorer } from "../ports/filesystem.js";
import type { KeptImage, UndoResult } from "./journal-records.js";
import type { RecordedWrite, UndoableCall, UndoPlan } from "./undo-plan.js";

export interface UndoPorts {
  readonly files: WorkspaceRestorer;
  /** A kept before-image's bytes, if they are still there and hash to `sha256`. */
  readonly image: (image: KeptImage, sha256: string) => Uint8Array | undefined;
  /** Durable before the next call is looked at (the journal's call_undone). */
  readonly record: (decision: UndoDecision) => Promise<void>;
  /** The audit line of each decision (the terminal, the JSON audit log). */
  readonly audit?: (decision: UndoDecision) => Promise<void> | void;
}

export interface UndoDecision {
  readonly callId: string;
  /** With the id, names the call (`UndoableCall.occurrence`): the journal's call_undone keeps it. */
  readonly occurrence: number;
  readonly tool: string;
  readonly result: UndoResult;
  /** The call as a person recognizes it: `write_file (call_2)`, ``shell `npm test` (call_4)``. */
  readonly call: string;
  /** What became of it, one sentence per file. */
  readonly detail: string;
}

export interface UndoReport {
  readonly decisions: readonly UndoDecision[];
  /** How many of the calls changed files (`UndoPlan.changes`). */
  readonly changes: number;
  readonly asked: number;
}

export async function undoCalls(plan: UndoPlan, ports: UndoPorts): Promise<UndoReport> {
  const decisions: UndoDecision[] = [];
  for (const call of plan.calls) {
    const { result, detail } = await undoCall(call, ports);
    const decision = {
      callId: call.callId,
      occurrence: call.occurrence,
      tool: call.tool,
      result,
      call: nameOf(call),
      detail,
    };
    await ports.record(decision);
    await ports.audit?.(decision);
    decisions.push(decision);
  }
  return { decisions, changes: plan.changes, asked: plan.asked };
}

/** One line per decision, as the person reads it. */
export function undoLine(decision: UndoDecision): string {
  switch (decision.result) {
    case "restored":
      return `undid ${decision.call}: ${decision.detail}`;
    case "unchanged":
      return `${decision.call}: ${decision.detail}; nothing to undo`;
    case "not_undoable":
      return `cannot undo ${decision.call}: ${decision.detail}`;
    case "refused":
      return `not undone: ${decision.call}: ${decision.detail}`;
  }
}

interface CallUndo {
  readonly result: UndoResult;
  readonly detail: string;
}

async function undoCall(call: UndoableCall, ports: UndoPorts): Promise<CallUndo> {
  if (!call.beforeImages) {
    return {
      result: "not_undoable",
      detail:
        call.effect === "execute"
          ? "it ran a command, and a command's effects cannot be undone; it is left as it ran"
          : "its effects cannot be undone (the tool keeps no before-images); it is left as it ran",
    };
  }
  if (call.writes.length === 0) {
    return { result: "unchanged", detail: "it changed no file (it wrote nothing)" };
  }
  const outcomes: CallUndo[] = [];
  // Newest first: a call that wrote one file twice is taken back through its own steps.
  for (const write of [...call.writes].reverse()) outcomes.push(await undoWrite(write, ports));
  const worst = (["refused", "not_undoable", "restored", "unchanged"] as const).find((result) =>
    outcomes.some((outcome) => outcome.result === result),
  );
  return {
    result: worst ?? "unchanged",
    detail: outcomes.map((outcome) => outcome.detail).join("; "),
  };
}

async function undoWrite(write: RecordedWrite, ports: UndoPorts): Promise<CallUndo> {
  const current = await currentOf(write.file, ports.files);
  const decided = decideWrite(write, current);
  if (decided.kind === "said") return decided.undo;
  try {
    if (decided.kind === "remove") {
      await ports.files.remove(write.file, write.afterSha256);
      const folders = await removeMadeFolders(write.madeFolders, ports.files);
      return {
        result: "restored",
        detail: `removed ${write.file}, which the call created${folders.length === 0 ? "" : `, and the folders it made for it, left empty (${folders.join(", ")})`}`,
      };
    }
    await ports.files.restore(write.file, decided.bytes(ports), write.afterSha256);
    return { result: "restored", detail: `${write.file} holds again what it held before the call` };
  } catch (error) {
    return {
      result: "refused",
      detail: `${write.file} could not be put back (${firstLineOfError(error)}); it was left as it is`,
    };
  }
}

/**
 * The folders a write made for the file it created, innermost first, each while it is empty: one
 * that holds anything now (a file made since), or is no longer that folder, stops the rest.
 */
async function removeMadeFolders(
  folders: readonly string[],
  files: UndoPorts["files"],
): Promise<string[]> {
  const removed: string[] = [];
  for (const folder of [...folders].reverse()) {
    if (!(await files.removeEmptyFolder(folder).catch(() => false))) break;
    removed.push(folder);
  }
  return removed;
}

type WriteDecision =
  | { readonly kind: "said"; readonly undo: CallUndo }
  | { readonly kind: "remove" }
  | { readonly kind: "restore"; readonly bytes: (ports: UndoPorts) => Uint8Array };

/** What to do with one write, from what it found, what it wrote, and the file now. */
export function decideWrite(write: RecordedWrite, current: CurrentFile): WriteDecision {
  const said = (result: UndoResult, detail: string): WriteDecision => ({
    kind: "said",
    undo: { result, detail },
  });
  const { file, before } = write;
  if (current.kind === "refused")
    return said("refused", `${file}: ${current.reason}; it was left as it is`);
  const asBefore =
    before === undefined
      ? current.kind === "absent"
      : current.kind === "file" && current.sha256 === before.sha256;
  if (asBefore) {
    const what =
      before === undefined
        ? "is not there, as before the call"
        : "holds what it held before the call";
    return said("unchanged", `${file} ${what}${write.landed ? "" : " (the write never happened)"}`);
  }
  if (current.kind === "absent") {
    return said("refused", `${file} was removed since the call; nothing was changed`);
  }
  if (current.sha256 !== write.afterSha256) {
    return said(
      "refused",
      `${file} changed since the call (it no longer holds what the call wrote: someone else edited it); it was left as it is`,
    );
  }
  if (before === undefined) return { kind: "remove" };
  const image = before.image;
  if (image === undefined) {
    return said(
      "not_undoable",
      `the change to ${file} cannot be undone: its earlier content was not kept (${before.notKept ?? "no before-image"}); it was left as it is`,
    );
  }
  return {
    kind: "restore",
    bytes: (ports) => {
      const bytes = ports.image(image, before.sha256);
      if (bytes === undefined) throw new Error("its kept earlier content is missing or damaged");
      return bytes;
    },
  };
}

async function currentOf(file: string, files: WorkspaceRestorer): Promise<CurrentFile> {
  try {
    return await files.current(file);
  } catch (error) {
    return { kind: "refused", reason: `it cannot be read (${firstLineOfError(error)})` };
  }
}

/** `write_file (call_2)`; a command names its text: ``shell `npm test` (call_4)``. */
function nameOf(call: UndoableCall): string {
  const command = commandText(call.arguments);
  return command === undefined
    ? `${call.tool} (${call.callId})`
    : `${call.tool} \`${command}\` (${call.callId})`;
}

const COMMAND_SHOWN = 80;

function commandText(argumentsJson: string | undefined): string | undefined {
  if (argumentsJson === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsJson);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { command, argv } = parsed as { command?: unknown; argv?: unknown };
  const text =
    typeof command === "string"
      ? command
      : Array.isArray(argv) && argv.every((part) => typeof part === "string")
        ? argv.join(" ")
        : undefined;
  return text === undefined ? undefined : oneLine(text, COMMAND_SHOWN);
}
