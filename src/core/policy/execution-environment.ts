/**
 * Where an approved shell command will run. The policy uses it to refuse execution when isolation
 * was required but cannot be had, and to tell the person and the audit trail where a command runs.
 */
export type ExecutionEnvironmentStatus =
  /** A working OS sandbox; `label` e.g. `sandbox: bwrap (network off, writable: /ws)`. */
  | {
      readonly kind: "isolated";
      readonly label: string;
      /** Whether its commands can reach the network (`--network`). */
      readonly network: "disabled" | "enabled";
    }
  /** No isolation, by choice or by fallback; `label` e.g. `sandbox: none — runs on the host`. */
  | { readonly kind: "host"; readonly label: string }
  /** Isolation was required and cannot be had: nothing may run. */
  | { readonly kind: "unavailable"; readonly reason: string };

export interface ExecutionEnvironment {
  status(): ExecutionEnvironmentStatus;
  /**
   * Settles once `status()` is final (the sandbox check may still be running at start, and the
   * status is then `unavailable`); never rejects. Absent: the status is final already. Only a
   * call that runs a command waits for it: a read, a write or a model reply never does.
   */
  decided?(): Promise<void>;
}

/**
 * Waits until the environment's status is final, or until `signal` aborts (the caller then
 * stops as at any other cancellation point). An environment whose wait fails is left as it is:
 * its status stays what it says (`unavailable` while undecided), and the policy refuses on it.
 */
export async function untilDecided(
  environment: ExecutionEnvironment | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const decided = environment?.decided?.();
  if (decided === undefined || signal?.aborted === true) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      signal?.removeEventListener("abort", done);
      resolve();
    };
    signal?.addEventListener("abort", done, { once: true });
    decided.then(done, done);
  });
}

export function environmentLabel(status: ExecutionEnvironmentStatus): string {
  return status.kind === "unavailable" ? `sandbox: unavailable — ${status.reason}` : status.label;
}

/** What an `execute` call's outcome names; a status that throws names none (it only describes). */
export function currentEnvironmentLabel(
  environment: ExecutionEnvironment | undefined,
): string | undefined {
  if (environment === undefined) return undefined;
  try {
    return environmentLabel(environment.status());
  } catch {
    return undefined;
  }
}

/**
 * Whether every command runs in the sandbox now, so none can still be running when its call has
 * ended (the sandbox's processes end with it). Unknown (no environment, a status that throws)
 * is no: the answer only ever buys speed, never safety.
 */
export function commandsEndWithTheirCalls(environment: ExecutionEnvironment | undefined): boolean {
  try {
    return environment?.status().kind === "isolated";
  } catch {
    return false;
  }
}

/** How every host environment's label starts: what the journal keeps of where a call ran. */
export const HOST_LABEL = "sandbox: none — runs on the host";

/** Whether a journaled environment label says the call ran on the host, with no sandbox. */
export function isHostLabel(label: string | undefined): boolean {
  return label?.startsWith(HOST_LABEL) === true;
}
