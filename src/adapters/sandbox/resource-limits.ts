/**
 * The resource limits every sandboxed command runs under: set inside the sandbox by util-linux's
 * `prlimit`, which sets them on itself and then executes the shell, so they bind the command and
 * everything it starts (each process on its own, except the process count). Where a cgroup can be
 * had, the process and memory limits also bind the command as a whole (cgroup-run.ts).
 */

export type ResourceLimitName = "memory" | "processes" | "file-size" | "cpu-time" | "open-files";

/** A value per limit; `undefined` leaves that limit as the agent itself has it. */
export type ResourceLimits = Readonly<Record<ResourceLimitName, number | undefined>>;

interface LimitSpec {
  /** The prlimit option, and the line of /proc/self/limits that holds its hard value. */
  readonly option: string;
  readonly procLine: string;
  readonly unit: "bytes" | "count" | "seconds";
  readonly min: number;
  readonly max: number;
  /** What the person and the model read: "memory limit 4 GiB". */
  readonly noun: string;
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/**
 * Memory is RLIMIT_DATA, not the address space: Node and V8 reserve large virtual ranges they
 * never use, so an address-space limit small enough to matter stops `node -e 1` itself.
 */
const SPECS: Readonly<Record<ResourceLimitName, LimitSpec>> = {
  memory: {
    option: "--data",
    procLine: "Max data size",
    unit: "bytes",
    min: 64 * MIB,
    max: 1024 * GIB,
    noun: "memory limit",
  },
  processes: {
    option: "--nproc",
    procLine: "Max processes",
    unit: "count",
    min: 16,
    max: 1_000_000,
    noun: "process limit",
  },
  "file-size": {
    option: "--fsize",
    procLine: "Max file size",
    unit: "bytes",
    min: 1 * MIB,
    max: 16 * 1024 * GIB,
    noun: "file size limit",
  },
  "cpu-time": {
    option: "--cpu",
    procLine: "Max cpu time",
    unit: "seconds",
    min: 1,
    max: 7 * 24 * 3600,
    noun: "CPU time limit",
  },
  "open-files": {
    option: "--nofile",
    procLine: "Max open files",
    unit: "count",
    min: 64,
    max: 1_048_576,
    noun: "open files limit",
  },
};

export const RESOURCE_LIMIT_NAMES = Object.keys(SPECS) as readonly ResourceLimitName[];

/**
 * Enough for a test run (a test runner with its workers, a build, `npm install`), small enough
 * that one runaway command cannot take the machine. Threads count as processes.
 */
export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = Object.freeze({
  memory: 4 * GIB,
  processes: 1024,
  "file-size": 2 * GIB,
  "cpu-time": 600,
  "open-files": 4096,
});

/** A `--sandbox-limit` value that is not a limit: a configuration error (exit 2). */
export class ResourceLimitError extends Error {
  override readonly name = "ResourceLimitError";
}

const SIZE_UNITS: Readonly<Record<string, number>> = {
  "": 1,
  k: 1024,
  kib: 1024,
  m: MIB,
  mib: MIB,
  g: GIB,
  gib: GIB,
  t: 1024 * GIB,
  tib: 1024 * GIB,
};

/**
 * `NAME=VALUE` settings over the defaults: `memory=8GiB`, `processes=256`, `file-size=512MiB`,
 * `cpu-time=300` (seconds), `open-files=2048`; `unlimited` keeps the agent's own limit.
 */
export function parseResourceLimits(settings: readonly string[]): ResourceLimits {
  const limits: Record<ResourceLimitName, number | undefined> = { ...DEFAULT_RESOURCE_LIMITS };
  for (const setting of settings) {
    const match = /^([a-z-]+)=(.+)$/.exec(setting.trim());
    const name = match?.[1];
    if (match === null || name === undefined || !isLimitName(name)) {
      throw new ResourceLimitError(
        `--sandbox-limit takes NAME=VALUE with NAME one of ${RESOURCE_LIMIT_NAMES.join(", ")} (got ${JSON.stringify(setting)})`,
      );
    }
    limits[name] = parseValue(name, match[2] ?? "");
  }
  return Object.freeze(limits);
}

function isLimitName(name: string): name is ResourceLimitName {
  return Object.hasOwn(SPECS, name);
}

function parseValue(name: ResourceLimitName, raw: string): number | undefined {
  if (raw === "unlimited") return undefined;
  const spec = SPECS[name];
  const match = /^(\d+)\s*([a-zA-Z]*)$/.exec(raw);
  const unit = match?.[2]?.toLowerCase() ?? "";
  const factor = spec.unit === "bytes" ? SIZE_UNITS[unit] : unit === "" ? 1 : undefined;
  const value = match === null || factor === undefined ? NaN : Number(match[1]) * factor;
  if (!Number.isSafeInteger(value) || value < spec.min || value > spec.max) {
    throw new ResourceLimitError(
      `--sandbox-limit ${name} must be ${describeRange(spec)} or "unlimited" (got ${JSON.stringify(raw)})`,
    );
  }
  return value;
}

function describeRange(spec: LimitSpec): string {
  return `from ${formatAmount(spec, spec.min)} to ${formatAmount(spec, spec.max)}${
    spec.unit === "bytes" ? " (e.g. 512MiB, 4GiB)" : ""
  }`;
}

/** "4 GiB", "256 MiB", "64", "600 s". */
export function formatAmount(spec: Pick<LimitSpec, "unit">, value: number): string {
  if (spec.unit === "seconds") return `${String(value)} s`;
  if (spec.unit === "count") return String(value);
  for (const [suffix, size] of [
    ["TiB", 1024 * GIB],
    ["GiB", GIB],
    ["MiB", MIB],
    ["KiB", 1024],
  ] as const) {
    if (value >= size && value % size === 0) return `${String(value / size)} ${suffix}`;
  }
  return `${String(value)} bytes`;
}

/** "memory limit 4 GiB", as the result of a command that hit it says. */
export function describeLimit(name: ResourceLimitName, value: number): string {
  const spec = SPECS[name];
  return `${spec.noun} ${formatAmount(spec, value)}`;
}

/**
 * The limits as they will apply: an unprivileged process cannot raise a hard limit, so a value
 * above the agent's own hard limit becomes that limit (and prlimit does not fail on it).
 * `hardLimits` is the text of /proc/self/limits; undefined when it could not be read.
 */
export function effectiveLimits(limits: ResourceLimits, hardLimits?: string): ResourceLimits {
  const effective: Record<ResourceLimitName, number | undefined> = { ...limits };
  for (const name of RESOURCE_LIMIT_NAMES) {
    const wanted = limits[name];
    const hard = hardLimits === undefined ? undefined : hardLimitOf(hardLimits, SPECS[name]);
    if (wanted !== undefined && hard !== undefined && wanted > hard) effective[name] = hard;
  }
  return Object.freeze(effective);
}

/** `Max open files  1024  524288  files`: the hard column, or undefined for unlimited. */
function hardLimitOf(text: string, spec: LimitSpec): number | undefined {
  const line = text.split("\n").find((row) => row.startsWith(spec.procLine));
  const columns = line?.slice(spec.procLine.length).trim().split(/\s+/) ?? [];
  const hard = Number(columns[1]);
  return Number.isSafeInteger(hard) ? hard : undefined;
}

/**
 * The prlimit argv before the command: soft and hard limit alike, so a command cannot raise them
 * again. CPU time alone gets a hard limit a second later: SIGXCPU at the soft limit ends the
 * command with a status that names it, before SIGKILL.
 */
export function prlimitArgs(prlimitPath: string, limits: ResourceLimits): string[] {
  const args = [prlimitPath];
  for (const name of RESOURCE_LIMIT_NAMES) {
    const value = limits[name];
    if (value === undefined) continue;
    const hard = name === "cpu-time" ? value + 1 : value;
    args.push(`${SPECS[name].option}=${String(value)}:${String(hard)}`);
  }
  return [...args, "--"];
}

/** Each set limit as the person reads it, in a fixed order: "memory 4 GiB, processes 1024, …". */
export function describeLimits(limits: ResourceLimits): string {
  return RESOURCE_LIMIT_NAMES.flatMap((name) => {
    const value = limits[name];
    return value === undefined ? [] : [`${name} ${formatAmount(SPECS[name], value)}`];
  }).join(", ");
}
