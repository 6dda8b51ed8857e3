import type { CommandResult } from "../../core/ports/command-runner.js";
import type { CgroupEvidence } from "../cgroup/index.js";
import { describeLimit, type ResourceLimitName, type ResourceLimits } from "./resource-limits.js";

/**
 * What a failed sandboxed command's result says about the sandbox's part in it: a limit it hit,
 * or a network it tried to use while the network is off. A limit is said to have stopped the
 * command only on evidence the harness itself has: the signal it died of (SIGXCPU, SIGXFSZ, from
 * the rlimits) or its cgroup's counters (forks refused, OOM kills). What the program printed is
 * its own text, which any program can print ("evicts entries when out of memory"): a limit seen
 * only there is worded as a possibility. A match only adds a line, the output is never changed.
 */

/** Read by the model; the acceptance test looks for these words. */
export const NETWORK_OFF_NOTE =
  "network is off in the sandbox: downloads and package installs cannot work here; ask the person to re-run the agent with --network if this needs the network";

/** Read by the model and the person: why `git add`, `commit` or `stash` failed here. */
export const GIT_READ_ONLY_NOTE =
  "git may have been refused the repository's .git, which is read-only in the sandbox (git runs the hooks and config in it), going by the output's words: git commands that change it (add, commit, stash, checkout) cannot work here; ask the person to run them";

/**
 * git's own words on stderr when it cannot write its lock or objects: a `fatal:` or `error:`
 * line naming a path in a `.git` folder.
 */
const GIT_WRITE_REFUSED =
  /^\[stderr\] (?:fatal|error): [^\n]*(?:^|[\s'"/])\.git\/[^\n]*(?:Read-only file system|Permission denied|insufficient permission)|^\[stderr\] (?:fatal|error): [^\n]*insufficient permission[^\n]*(?:^|[\s'"/])\.git\//mu;

const SIGXCPU_EXIT = 128 + 24;
const SIGXFSZ_EXIT = 128 + 25;
const SIGKILL_EXIT = 128 + 9;

/**
 * The words programs print when an allocation, a fork or an open fails at a limit: the system's
 * own messages (strerror) and the runtimes' fatal errors, not words that merely mention the
 * subject.
 */
const LIMIT_WORDS: readonly (readonly [ResourceLimitName, RegExp])[] = [
  [
    "memory",
    /Cannot allocate memory|cannot allocate \d+ bytes|heap out of memory|Allocation failed|\bMemoryError\b|std::bad_alloc|runtime: out of memory|memory exhausted|\bENOMEM\b/i,
  ],
  [
    "processes",
    /fork: (retry: )?Resource temporarily unavailable|can't fork|cannot fork|spawn \S+ EAGAIN|fork failed/i,
  ],
  ["open-files", /Too many open files/i],
  // A program that ignores SIGXFSZ gets EFBIG instead; bash names SIGXCPU in these words too.
  ["file-size", /File size limit exceeded|File too large|\bEFBIG\b/i],
  ["cpu-time", /CPU time limit exceeded/i],
];

/**
 * The usual ways a client says it could not reach a host (curl, wget, npm, pip, git, node, Go…),
 * and the package managers' own "offline" words, pip's under the sandbox's PIP_NO_INDEX=1 among
 * them (`No matching distribution found`: no index was asked). A failed command printing one of
 * these while the network is off gets the note; with the network on, none of this is the
 * sandbox's doing.
 */
const NETWORK_SIGNS =
  /ENOTFOUND|EAI_AGAIN|ENOTCACHED|ENETUNREACH|EHOSTUNREACH|ECONNREFUSED|ECONNRESET|ETIMEDOUT|Could not resolve host|Couldn't resolve host|Couldn't connect to server|Failed to connect to|Could not connect|Connection refused|Connection timed out|Connection reset|Network is unreachable|No route to host|unable to resolve host|Temporary failure in name resolution|Name or service not known|nodename nor servname|getaddrinfo|NewConnectionError|Failed to establish a new connection|Max retries exceeded|unable to access '|fetch failed|socket hang up|dial tcp|only-if-cached|GOPROXY=off|network-related errors|--offline|offline mode|No matching distribution found/i;

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
  const stopped = limitsShown(result.exitCode, context.cgroup);
  for (const name of stopped) {
    const value = context.limits[name];
    if (value !== undefined) notes.push(`stopped: ${describeLimit(name, value)} reached`);
  }
  for (const [name, words] of LIMIT_WORDS) {
    const value = context.limits[name];
    if (value === undefined || stopped.includes(name) || !words.test(text)) continue;
    notes.push(`may have hit the ${describeLimit(name, value)} (going by the output's words)`);
  }
  if (!context.network && NETWORK_SIGNS.test(text)) notes.push(NETWORK_OFF_NOTE);
  if (GIT_WRITE_REFUSED.test(text)) notes.push(GIT_READ_ONLY_NOTE);
  return notes;
}

/** The limits the harness itself saw hit: by the signal, or by the cgroup's counts. */
function limitsShown(
  exitCode: number | null,
  cgroup: CgroupEvidence | undefined,
): ResourceLimitName[] {
  const hit: ResourceLimitName[] = [];
  if (cgroup !== undefined && cgroup.forkRefusals > 0) hit.push("processes");
  if (cgroup !== undefined && oomKilled(exitCode, cgroup)) hit.push("memory");
  if (exitCode === SIGXFSZ_EXIT) hit.push("file-size");
  if (exitCode === SIGXCPU_EXIT) hit.push("cpu-time");
  return hit;
}

/**
 * The OOM killer ended one of the command's processes at its cgroup's memory limit. A kernel that
 * does not count OOM kills (v1 before 4.13) leaves the failure count and a SIGKILLed command.
 */
function oomKilled(exitCode: number | null, cgroup: CgroupEvidence): boolean {
  if (cgroup.oomKills !== undefined) return cgroup.oomKills > 0;
  return cgroup.memoryFailures > 0 && exitCode === SIGKILL_EXIT;
}

/**
 * The result with these notes after any it has: kept apart from the output, so that nothing the
 * command prints can pass for one, and a note stays whole whatever its path holds.
 */
export function withNotes(result: CommandResult, notes: readonly string[]): CommandResult {
  if (notes.length === 0) return result;
  return { ...result, notes: [...(result.notes ?? []), ...notes] };
}
