/**
 * The sandbox probe's last verdicts on this machine, remembered in `sandbox-probe.json` at the state
 * root (owner-only, hidden from sandboxed commands), each under the fingerprint it was reached with
 * (a few of them: an installed agent and a development copy differ, and may take turns). It
 * only lets the first model request say at once what the probe will most likely say; it never
 * decides where a command runs. So anything unexpected (no file, a link, a FIFO, a second name,
 * another owner, too large, not our JSON, another fingerprint) reads as "nothing remembered", and
 * the next write replaces the name with a file of our own.
 */
import { closeSync, constants, openSync, renameSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { openRegularFileSync, readAtMostSync } from "../filesystem/index.js";
import { removeQuietly } from "./state-files.js";

const FILE_NAME = "sandbox-probe.json";
const MAX_BYTES = 16 * 1024;
const FORMAT = 1;
/** The newest fingerprints kept; an older one costs its next start a wait for the probe. */
const MAX_ENTRIES = 8;

/** What the probe decided, as far as the model's first request depends on it. */
export interface ProbeVerdict {
  /** Whether the probe passed, so that commands run in the sandbox. */
  readonly sandboxUsable: boolean;
  /** Why `auto` fell back to the host, when it did. */
  readonly fallbackReason?: string;
  /** Whether commands run in the sandbox with the network off: the model is told so. */
  readonly networkOff: boolean;
}

export function probeVerdictPath(stateRoot: string): string {
  return join(stateRoot, FILE_NAME);
}

/** The verdict remembered for `fingerprint`; undefined for anything else (see the file's comment). */
export function readProbeVerdict(stateRoot: string, fingerprint: string): ProbeVerdict | undefined {
  return readEntries(stateRoot).get(fingerprint);
}

/** Every entry of a file that is ours; an empty map for anything else. */
function readEntries(stateRoot: string): Map<string, ProbeVerdict> {
  let text: string;
  try {
    const opened = openRegularFileSync(probeVerdictPath(stateRoot), constants.O_RDONLY, {
      oneName: true,
    });
    try {
      // Someone else's file in our directory was not written by us: its verdicts are not ours.
      if (process.getuid !== undefined && opened.stats.uid !== process.getuid()) return new Map();
      const bytes = readAtMostSync(opened.handle, MAX_BYTES);
      if (bytes === undefined) return new Map();
      text = bytes.toString("utf8");
    } finally {
      closeSync(opened.handle);
    }
  } catch {
    return new Map();
  }
  return entriesIn(text);
}

/**
 * Remembers `verdict` under `fingerprint` as the newest entry, keeping the newest few others.
 * Replaces the file in one step (a private name, then rename, which replaces a link or a FIFO at
 * the name rather than following it). Not fsync'd: a file torn by a power loss reads as nothing
 * remembered. A failure is swallowed: the next start then waits for the probe, as without a cache.
 */
export function writeProbeVerdict(
  stateRoot: string,
  fingerprint: string,
  verdict: ProbeVerdict,
): void {
  const entries = readEntries(stateRoot);
  entries.delete(fingerprint);
  entries.set(fingerprint, verdict);
  for (const oldest of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break;
    entries.delete(oldest);
  }
  const temporary = join(stateRoot, `.tmp-${randomBytes(8).toString("hex")}`);
  try {
    // "wx" is O_CREAT | O_EXCL: it never follows a link, and never replaces a file.
    const fd = openSync(temporary, "wx", 0o600);
    try {
      writeSync(
        fd,
        `${JSON.stringify({ format: FORMAT, entries: Object.fromEntries(entries) })}\n`,
      );
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, probeVerdictPath(stateRoot));
  } catch {
    removeQuietly(temporary);
  }
}

/** Oldest first, as written; an entry of the wrong shape is left out. */
function entriesIn(text: string): Map<string, ProbeVerdict> {
  const entries = new Map<string, ProbeVerdict>();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return entries;
  }
  if (!isRecord(value) || value.format !== FORMAT || !isRecord(value.entries)) return entries;
  for (const [fingerprint, verdict] of Object.entries(value.entries)) {
    const checked = checkedVerdict(verdict);
    if (checked !== undefined) entries.set(fingerprint, checked);
  }
  return entries;
}

function checkedVerdict(verdict: unknown): ProbeVerdict | undefined {
  if (
    !isRecord(verdict) ||
    typeof verdict.sandboxUsable !== "boolean" ||
    typeof verdict.networkOff !== "boolean" ||
    (verdict.fallbackReason !== undefined && typeof verdict.fallbackReason !== "string")
  ) {
    return undefined;
  }
  return {
    sandboxUsable: verdict.sandboxUsable,
    ...(typeof verdict.fallbackReason === "string"
      ? { fallbackReason: verdict.fallbackReason }
      : {}),
    networkOff: verdict.networkOff,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
