/**
 * P04's approvals, as files under `<workspace state dir>/approvals/`:
 *
 * - `requests/<id>.json`   a request that waits (the seed's ApprovalRequest, plus who asked);
 * - `answers/<id>.json`    the person's one answer to it (created once: a second is refused);
 * - `grants/<digest>.<id>.json`, `denials/<digest>.<id>.json`  one-time tokens for that action;
 * - `consumed/…`           a token once used, moved there in one atomic rename;
 * - `log.jsonl`            every answer and every use, appended.
 *
 * A grant is bound to the run that asked for it and to the action's digest (tool, input, cwd,
 * network, sandbox, profile, script), expires, and is used once: two processes racing for it
 * cannot both have it (see `takeOnce`). Another run of the same workspace asking for the same
 * action does not get it: it asks for its own.
 */
import { closeSync, lstatSync, writeSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { builtOnce } from "../../core/common/built-once.js";
import {
  DIGEST_PATTERN,
  REQUEST_ID_PATTERN,
  type ApprovalRequest,
} from "../../core/policy/approval-request.js";
import { openHarnessOutput } from "../filesystem/index.js";
import { callKey, newestPerCall } from "./newest-requests.js";
import { nodeStateFileOps, type StateFileOps } from "./state-file-ops.js";
import {
  createOnce,
  ensureSubdirectory,
  listRecords,
  publish,
  readRecord,
  removeQuietly,
  takeOnce,
} from "./state-files.js";
import { ConfigurationError } from "../../core/common/configuration-error.js";

/** `agent approve`/`deny` cannot do what was asked; the message says why, in one line. */
export class ApprovalStoreError extends ConfigurationError {
  override readonly name = "ApprovalStoreError";
}

function buildSchemas() {
  const request = z.strictObject({
    id: z.string().regex(REQUEST_ID_PATTERN),
    actionDigest: z.string().regex(DIGEST_PATTERN),
    summary: z.string(),
    scriptRows: z.array(z.string()).optional(),
    risks: z.array(z.string()),
    expiresAt: z.iso.datetime(),
  });

  const storedRequest = z.strictObject({
    request,
    runId: z.string(),
    callId: z.string(),
    tool: z.string(),
    createdAt: z.iso.datetime(),
  });

  const token = z.strictObject({
    requestId: z.string().regex(REQUEST_ID_PATTERN),
    actionDigest: z.string().regex(DIGEST_PATTERN),
    /** The run whose request this answers: only that run may use the token. */
    runId: z.string(),
    answer: z.enum(["approved", "denied"]),
    answeredAt: z.iso.datetime(),
    /** For a grant: when it stops counting. */
    expiresAt: z.iso.datetime().optional(),
    by: z.string(),
  });

  return { request, storedRequest, token };
}

/** Built at the first use of the store (P04 runs, `agent approve`), not at every start-up. */
const schemas = builtOnce(buildSchemas);
export type StoredRequest = z.infer<ReturnType<typeof buildSchemas>["storedRequest"]>;
export type AnswerToken = z.infer<ReturnType<typeof buildSchemas>["token"]>;

export interface RequestContext {
  readonly runId: string;
  readonly callId: string;
  readonly tool: string;
}

const UNNAMED_CALL = Object.freeze({ callId: "(not named)", tool: "(not named)" });

export const DEFAULT_GRANT_TTL_MS = 15 * 60 * 1000;

export interface ApprovalStoreOptions {
  readonly now?: () => number;
  /** How records are written and made durable (node:fs; tests record or fail the fsyncs). */
  readonly files?: StateFileOps;
  /**
   * Why a request can no longer be used although it has not expired (its run has ended, or waits
   * on another request now); undefined while it can. Such a request is neither listed nor answered.
   */
  readonly whyStale?: (stored: StoredRequest) => string | undefined;
}

export class ApprovalStore {
  readonly directory: string;
  readonly #now: () => number;
  readonly #files: StateFileOps;
  readonly #whyStale: (stored: StoredRequest) => string | undefined;
  #logFd: number | undefined;

  /** `stateDirectory`: the workspace's own state directory (openWorkspaceState's `directory`). */
  constructor(stateDirectory: string, options: ApprovalStoreOptions = {}) {
    this.directory = ensureSubdirectory(stateDirectory, "approvals");
    for (const name of SUBDIRECTORIES) ensureSubdirectory(this.directory, name);
    this.#now = options.now ?? Date.now;
    this.#files = options.files ?? nodeStateFileOps;
    this.#whyStale = options.whyStale ?? (() => undefined);
  }

  /** Persists a request that will wait for `agent approve` or `agent deny`. */
  /**
   * The seed's `saveApprovalRequest(runId, request)`, with the call that asked; a request saved
   * as the seed saves it, without its call, names none.
   */
  saveApprovalRequest(
    runId: string,
    request: ApprovalRequest,
    call: Omit<RequestContext, "runId"> = UNNAMED_CALL,
  ): void {
    this.saveRequest(request, { runId, callId: call.callId, tool: call.tool });
  }

  saveRequest(request: ApprovalRequest, context: RequestContext): void {
    this.#openLog();
    const record: StoredRequest = {
      request: schemas().request.parse(request),
      runId: context.runId,
      callId: context.callId,
      tool: context.tool,
      createdAt: this.#iso(this.#now()),
    };
    if (!createOnce(this.#path("requests", `${request.id}.json`), json(record), this.#files)) {
      throw new ApprovalStoreError(`request ${request.id} already exists`);
    }
    this.#log({
      event: "requested",
      requestId: request.id,
      actionDigest: request.actionDigest,
      ...context,
    });
  }

  /**
   * Requests with no answer yet that can still be answered, oldest first. A request its run has
   * since replaced (the same call waited again: other arguments, an expired grant) is not one.
   */
  pendingRequests(): StoredRequest[] {
    const now = this.#now();
    const stored = this.#allRequests();
    const newest = newestPerCall(stored);
    return (
      stored
        .filter((one) => newest.get(callKey(one)) === one)
        .filter((one) => Date.parse(one.request.expiresAt) > now)
        // Any entry under the answer's name, even one that is not a regular file, means answered.
        .filter((one) => !entryExists(this.#path("answers", `${one.request.id}.json`)))
        .filter((one) => this.#whyStale(one) === undefined)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    );
  }

  /** The person says yes: a one-time grant for exactly that action, valid for `ttlMs`. */
  approve(requestId: string, ttlMs: number, by: string): AnswerToken {
    return this.#answer(requestId, "approved", by, ttlMs);
  }

  /** The person says no: the waiting call, when it is tried again, gets a denial. */
  deny(requestId: string, by: string): AnswerToken {
    return this.#answer(requestId, "denied", by, undefined);
  }

  /**
   * Takes the grant this run was given for this action, if there is one that has not expired and
   * was not used: it is moved to `consumed/` in one rename, so of two racing processes only one
   * gets it. A grant answering another run's request is left alone, however alike the actions.
   */
  consumeApprovalGrant(runId: string, actionDigest: string): AnswerToken | undefined {
    return this.#take("grants", runId, actionDigest);
  }

  /**
   * The unused, unexpired grant that answers this run's newest request for this call, whatever
   * action it names: a resumed call whose action no longer matches it changed since the approval.
   * Read only; nothing is consumed.
   */
  grantForCall(runId: string, callId: string): AnswerToken | undefined {
    const stored = newestPerCall(this.#allRequests()).get(
      callKey({ runId, callId, createdAt: "", request: { id: "" } }),
    );
    if (stored === undefined) return undefined;
    const name = `${stored.request.actionDigest}.${stored.request.id}.json`;
    const token = schemas().token.safeParse(readOrUndefined(this.#path("grants", name)));
    if (!token.success || token.data.runId !== runId) return undefined;
    if (token.data.actionDigest !== stored.request.actionDigest) return undefined;
    if (token.data.expiresAt !== undefined && Date.parse(token.data.expiresAt) <= this.#now()) {
      return undefined;
    }
    return token.data;
  }

  /**
   * This run's newest request for this call while it still waits for an answer (not answered,
   * not expired): a resume before the answer waits on it again when the action is the same, so
   * the id the person copied stays the one to answer, and says it replaces it when not.
   */
  waitingRequest(runId: string, callId: string): ApprovalRequest | undefined {
    const stored = newestPerCall(this.#allRequests()).get(
      callKey({ runId, callId, createdAt: "", request: { id: "" } }),
    );
    if (stored === undefined) return undefined;
    if (Date.parse(stored.request.expiresAt) <= this.#now()) return undefined;
    if (entryExists(this.#path("answers", `${stored.request.id}.json`))) return undefined;
    return stored.request;
  }

  /** Takes a recorded denial of this run's request for this action, once, the same way. */
  consumeDenial(runId: string, actionDigest: string): AnswerToken | undefined {
    return this.#take("denials", runId, actionDigest);
  }

  #take(kind: "grants" | "denials", runId: string, actionDigest: string): AnswerToken | undefined {
    if (!DIGEST_PATTERN.test(actionDigest)) return undefined;
    this.#openLog();
    const now = this.#now();
    for (const name of listRecords(this.#path(kind))) {
      if (!name.startsWith(`${actionDigest}.`)) continue;
      const token = schemas().token.safeParse(readOrUndefined(this.#path(kind, name)));
      // The digest inside must agree with the name: a renamed file grants nothing.
      if (!token.success || token.data.actionDigest !== actionDigest) continue;
      if (token.data.runId !== runId) continue;
      if (token.data.expiresAt !== undefined && Date.parse(token.data.expiresAt) <= now) continue;
      const consumed = this.#path("consumed", `${kind}-${name}`);
      if (!takeOnce(this.#path(kind, name), consumed, this.#files)) continue;
      this.#log({
        event: kind === "grants" ? "grant_consumed" : "denial_consumed",
        requestId: token.data.requestId,
        actionDigest,
        runId,
      });
      return token.data;
    }
    return undefined;
  }

  #answer(
    requestId: string,
    answer: AnswerToken["answer"],
    by: string,
    ttlMs: number | undefined,
  ): AnswerToken {
    if (!REQUEST_ID_PATTERN.test(requestId)) {
      throw new ApprovalStoreError(`no such request: ${JSON.stringify(requestId)}`);
    }
    const stored = this.#readRequest(`${requestId}.json`);
    if (stored === undefined) throw new ApprovalStoreError(`no such request: ${requestId}`);
    this.#openLog();
    // The run no longer waits for this action: an answer to it would grant what nobody asks now.
    const newer = newestPerCall(this.#allRequests()).get(callKey(stored));
    if (newer !== undefined && newer.request.id !== requestId) {
      throw new ApprovalStoreError(
        `request ${requestId} was replaced by request ${newer.request.id} (run ${stored.runId} asked again); answer that one`,
      );
    }
    const stale = this.#whyStale(stored);
    if (stale !== undefined) {
      throw new ApprovalStoreError(
        `request ${requestId} can no longer be used: ${stale}; nothing was approved or denied`,
      );
    }
    const now = this.#now();
    if (Date.parse(stored.request.expiresAt) <= now) {
      throw new ApprovalStoreError(
        `request ${requestId} expired at ${stored.request.expiresAt}; run the task again for a new one`,
      );
    }
    const token: AnswerToken = {
      requestId,
      actionDigest: stored.request.actionDigest,
      runId: stored.runId,
      answer,
      answeredAt: this.#iso(now),
      ...(ttlMs === undefined ? {} : { expiresAt: this.#iso(now + ttlMs) }),
      by,
    };
    // Created once: whoever answers first decides; a second answer is refused, not merged.
    const answerPath = this.#path("answers", `${requestId}.json`);
    if (!createOnce(answerPath, json(token), this.#files)) {
      throw new ApprovalStoreError(`request ${requestId} was already answered`);
    }
    const kind = answer === "approved" ? "grants" : "denials";
    try {
      publish(
        this.#path(kind),
        `${token.actionDigest}.${requestId}.json`,
        json(token),
        this.#files,
      );
    } catch (error) {
      // No grant (or denial) is recorded: take the answer back, so the request can be answered
      // again rather than stay answered with nothing to show for it.
      removeQuietly(answerPath, this.#files);
      throw error;
    }
    this.#log({
      event: answer,
      requestId,
      actionDigest: token.actionDigest,
      by,
      ...(token.expiresAt === undefined ? {} : { expiresAt: token.expiresAt }),
    });
    return token;
  }

  #allRequests(): StoredRequest[] {
    return listRecords(this.#path("requests"))
      .map((name) => this.#readRequest(name))
      .filter((stored): stored is StoredRequest => stored !== undefined);
  }

  #readRequest(name: string): StoredRequest | undefined {
    const parsed = schemas().storedRequest.safeParse(readOrUndefined(this.#path("requests", name)));
    return parsed.success ? parsed.data : undefined;
  }

  /** Closes the log, if it was opened. The store writes nothing after this. */
  close(): void {
    if (this.#logFd === undefined) return;
    closeSync(this.#logFd);
    this.#logFd = undefined;
  }

  /**
   * The store's own record of every answer and use: always written, whatever --audit-log says.
   * Opened once, safely, and kept open; each change opens it before it happens, so a log that
   * cannot be opened (a link or a FIFO planted in its place) stops the change instead of
   * leaving it done and unrecorded.
   */
  #openLog(): number {
    this.#logFd ??= openHarnessOutput(join(this.directory, "log.jsonl"), { truncate: false }).fd;
    return this.#logFd;
  }

  #log(entry: Record<string, unknown>): void {
    const line = Buffer.from(`${JSON.stringify({ time: this.#iso(this.#now()), ...entry })}\n`);
    const fd = this.#openLog();
    for (let written = 0; written < line.length;) {
      written += writeSync(fd, line, written, line.length - written);
    }
  }

  #iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  #path(...parts: string[]): string {
    return join(this.directory, ...parts);
  }
}

const SUBDIRECTORIES = ["requests", "answers", "grants", "denials", "consumed"] as const;

function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A link, a FIFO or broken JSON in the store is no record: it grants and lists nothing. */
function readOrUndefined(path: string): unknown {
  try {
    return readRecord(path);
  } catch {
    return undefined;
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
