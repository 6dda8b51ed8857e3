/**
 * A persisted question to a person about one exact action (the seed's `ApprovalRequest`), and the
 * digest that binds an answer to that action and to nothing else.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "../common/canonical-json.js";

export interface ApprovalRequest {
  /** What `agent approve ID` names. */
  readonly id: string;
  /** SHA-256 hex of `actionPreimage(...)`: a grant counts only for this exact action. */
  readonly actionDigest: string;
  /** One line: the tool, the full argv, the cwd, the effect and where it runs. */
  readonly summary: string;
  /**
   * What the command runs that the workspace holds (its script, the scripts npm reaches, the
   * files interpreters are given, the `.npmrc`), one row each, when it runs any. This is text the
   * model could have written: it is shown apart, in a marked block, never as the harness's rows.
   */
  readonly scriptRows?: readonly string[];
  readonly risks: readonly string[];
  /** ISO time after which the request can no longer be approved. */
  readonly expiresAt: string;
}

/** Everything an approval is bound to; a change in any field needs a new approval. */
export interface ActionFacts {
  readonly profile: string;
  readonly tool: string;
  /** The schema-parsed input, as the tool will receive it. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The real path of the directory the action runs in. */
  readonly cwd: string;
  readonly network: "disabled" | "enabled";
  /** Where it runs, e.g. `sandbox: bwrap (network off, writable: /ws)`. */
  readonly sandbox: string;
  /**
   * What the program will run besides its argv, when the harness can tell: for `npm test` the
   * text of package.json's `test` script as it is now. A changed script is another action.
   */
  readonly script: string | null;
}

/**
 * The exact preimage: the canonical JSON (keys sorted, RFC 8785 order, no spaces) of
 * `{"cwd","input","network","profile","sandbox","script","tool","v":1}`. JSON keeps each field apart, so no
 * value can pass for another field (a newline in an argument, say).
 */
export function actionPreimage(facts: ActionFacts): string {
  return canonicalJson({
    v: 1,
    profile: facts.profile,
    tool: facts.tool,
    input: facts.input,
    cwd: facts.cwd,
    network: facts.network,
    sandbox: facts.sandbox,
    script: facts.script,
  });
}

export function actionDigest(facts: ActionFacts): string {
  return createHash("sha256").update(actionPreimage(facts), "utf8").digest("hex");
}

/** A well-formed request id: what the store uses as a file name, so nothing else is accepted. */
export const REQUEST_ID_PATTERN = /^req_[0-9a-f]{16}$/;
export const DIGEST_PATTERN = /^[0-9a-f]{64}$/;
