/**
 * A server's environment and headers, with each `{"fromEnv": NAME}` read from the host now, and
 * every secret value kept aside so results and failure lines can be redacted of it.
 */
type Secret = string | { readonly fromEnv: string };

export class MissingSecretError extends Error {
  override readonly name = "MissingSecretError";
}

/** Values shorter than this are not redacted: "1" or "on" would blank out half of every result. */
const MIN_REDACTED = 4;

export interface ResolvedValues {
  readonly values: Readonly<Record<string, string>>;
  /** The values to redact, longest first (a secret inside another is redacted with it). */
  readonly secrets: readonly string[];
}

/** `what` names the field in a failure line (`env`, `header`); a value is never part of it. */
export function resolveSecrets(
  given: Readonly<Record<string, Secret>> | undefined,
  hostEnv: Readonly<Record<string, string | undefined>>,
  what: string,
): ResolvedValues {
  const values: Record<string, string> = {};
  for (const [key, secret] of Object.entries(given ?? {})) {
    if (typeof secret === "string") {
      values[key] = secret;
      continue;
    }
    const value = hostEnv[secret.fromEnv];
    if (value === undefined || value === "") {
      throw new MissingSecretError(
        `${what} ${key} is read from the host variable ${secret.fromEnv}, which is not set`,
      );
    }
    values[key] = value;
  }
  return { values, secrets: secretsOf(Object.values(values).flatMap(withCredential)) };
}

/** `Bearer <token>`: the token alone is as secret as the whole header, wherever it is echoed. */
function withCredential(value: string): string[] {
  const match = /^[A-Za-z][A-Za-z0-9-]* +(\S+)$/.exec(value);
  return match?.[1] === undefined ? [value] : [value, match[1]];
}

export function secretsOf(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value.length >= MIN_REDACTED))].sort(
    (a, b) => b.length - a.length,
  );
}

export const REDACTED = "[redacted]";

export function redact(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) redacted = redacted.split(secret).join(REDACTED);
  return redacted;
}
