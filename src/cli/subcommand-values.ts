import { CliConfigError } from "./config-error.js";

/** `15m`, `90s`, `2h`: how long a grant counts. At most a day: a grant is for a run, not a habit. */
/** What `--ttl` takes, in its errors. */
export const TTL_TAKES = "a duration such as 90s, 15m or 2h, at most 24h";

export function parseTtl(raw: string): number {
  const match = /^([1-9][0-9]{0,5})(s|m|h)$/.exec(raw);
  const unit = { s: 1000, m: 60_000, h: 3_600_000 } as const;
  const ms = match === null ? Number.NaN : Number(match[1]) * unit[match[2] as keyof typeof unit];
  if (!Number.isFinite(ms) || ms > 24 * 3_600_000) {
    throw new CliConfigError(`--ttl must be ${TTL_TAKES} (got ${JSON.stringify(raw)})`);
  }
  return ms;
}
