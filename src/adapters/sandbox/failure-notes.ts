import type { CommandResult } from "../../core/ports/command-runner.js";
import type { CgroupEvidence } from "../cgroup/index.js";
import { describeLimit, type ResourceLimitName, type ResourceLimits } from "./resource-limits.js";

/**
 * What a failed sandboxed command's result says about the sandbox's part in it: a limit it hit,
 * or a network it tried to use while the network is off. A command's cgroup counts the forks it
 * refused and the processes the OOM killer ended; rlimits leave no record, so the signal a command
 * died of (file size, CPU time) or the words the program printed (out of memory, fork failed, too
 * many open files) tell. A match only adds a line, the output itself is never changed.
 */

/** Read by the model; the acceptance test looks for these words. */
export const NETWORK_OFF_NOTE =
  "network is off in the sandbox: downloads and package installs cannot work here; ask the person to re-run the agent with --network if this needs the network";

const SIGXCPU_EXIT = 128 + 24;
const SIGXFSZ_EXIT = 128 + 25;
const SIGKILL_EXIT = 128 + 9;

const LIMIT_SIGNS: readonly (readonly [ResourceLimitName, RegExp])[] = [
  [
    "memory",
    /out of memory|cannot allocate|allocation failed|MemoryError|bad_alloc|memory exhausted|ENOMEM/i,
  ],
  [
    "processes",
    /fork: (retry: )?Resource temporarily unavailable|can't fork|cannot fork|spawn \S+ EAGAIN|fork failed/i,
  ],
  ["file-size", /File size limit exceeded|File too large|EFBIG/i],
  ["cpu-time", /CPU time limit exceeded/i],
  ["open-files", /Too many open files|EMFILE/],
];

const NETWORK_SIGNS =
  /ENOTFOUND|EAI_AGAIN|ENOTCACHED|ENETUNREACH|Could not resolve host|Network is unreachable|Temporary failure in name resolution|Name or service not known|getaddrinfo|only-if-cached|GOPROXY=off|network-related errors|--offline|offline mode/i;

export interface FailureContext {
  readonly network: boolean;
  readonly limits: ResourceLimits;
  /** What the command's cgroup counted; absent when it ran without one. */
  readonly cgroup?: CgroupEvidence;
}

/** The notes for one result: none when the command succeeded. */
export function failureNotes(result: CommandResult, context: FailureContext): string[] {
  if (result.exitCode === 0) return [];
  const text = `${result.output}\n${result.omitted?.tail ?? ""}`;
  const notes: string[] = [];
  for (const name of limitsHit(result.exitCode, text, context.cgroup)) {
    const value = context.limits[name];
    if (value !== undefined) notes.push(`stopped: ${describeLimit(name, value)} reached`);
  }
  if (!context.network && NETWORK_SIGNS.test(text)) notes.push(NETWORK_OFF_NOTE);
  return notes;
}

function limitsHit(
  exitCode: number | null,
  text: string,
  cgroup: CgroupEvidence | undefined,
): ResourceLimitName[] {
  const hit = new Set<ResourceLimitName>();
  if (exitCode === SIGXFSZ_EXIT) hit.add("file-size");
  if (exitCode === SIGXCPU_EXIT) hit.add("cpu-time");
  if (cgroup !== undefined && cgroup.forkRefusals > 0) hit.add("processes");
  if (cgroup !== undefined && oomKilled(exitCode, cgroup)) hit.add("memory");
  for (const [name, sign] of LIMIT_SIGNS) if (sign.test(text)) hit.add(name);
  return [...hit];
}

/**
 * The OOM killer ended one of the command's processes at its cgroup's memory limit. A kernel that
 * does not count OOM kills (v1 before 4.13) leaves the failure count and a SIGKILLed command.
 */
function oomKilled(exitCode: number | null, cgroup: CgroupEvidence): boolean {
  if (cgroup.oomKills !== undefined) return cgroup.oomKills > 0;
  return cgroup.memoryFailures > 0 && exitCode === SIGKILL_EXIT;
}

/** The notes as lines after the output (after the tail when it was cut). */
export function withNotes(result: CommandResult, notes: readonly string[]): CommandResult {
  if (notes.length === 0) return result;
  const lines = notes.map((note) => `[sandbox] ${note}`).join("\n");
  if (result.omitted !== undefined) {
    const tail = result.omitted.tail;
    const separator = tail === "" || tail.endsWith("\n") ? "" : "\n";
    return { ...result, omitted: { ...result.omitted, tail: `${tail}${separator}${lines}` } };
  }
  const separator = result.output === "" || result.output.endsWith("\n") ? "" : "\n";
  return { ...result, output: `${result.output}${separator}${lines}` };
}
