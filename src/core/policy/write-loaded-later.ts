/**
 * Why a write is of a file loaded later (loaded-later-files.ts, later-scripts.ts): the one
 * answer chapter 4's question about a write and a person's allow rule both take, so the person
 * reads the same reason wherever the write is asked. The disk is asked through probes the
 * composition root gives; any of them may be missing (that question is then not asked).
 */
import { laterRunReason, type LaterScriptRun } from "./later-scripts.js";
import { loadedLaterReason, type LoadedThroughLink } from "./loaded-later-files.js";

/** What only the disk can tell about where a write of `path` (workspace-relative) lands. */
export interface LoadedLaterProbes {
  /**
   * Where a write of `path` lands, workspace-relative and `/`-separated, links followed as the
   * file tools follow them: a link named `notes.md` may land on `AGENTS.md`. It throws when it
   * cannot say; the write then asks.
   */
  readonly writeLanding?: (path: string) => string;
  /**
   * The loaded-later link (`AGENTS.md -> docs/rules.md`, or one inside a folder loaded whole:
   * `.github/workflows/ci.yml -> ../../ci.yml`) that leads to where a write of `path` lands, or a
   * folder holding it, and why it is loaded; undefined for none. It throws when it cannot say;
   * the write then asks.
   */
  readonly loadedThrough?: (path: string) => LoadedThroughLink | undefined;
  /**
   * The script the host runs later that runs or names where a write of `path` lands: a git hook
   * (`.husky/pre-commit`: the next commit runs it) or a package.json's install-time script
   * (`postinstall`: the next `npm install`); undefined for none. It throws when it cannot say;
   * the write then asks.
   */
  readonly laterRun?: (path: string) => LaterScriptRun | undefined;
}

export interface LoadedLater {
  readonly reason: string;
  /** The file a link makes the write land on, when it is not the named one. */
  readonly landsOn?: string;
  /** The loaded-later link that leads to the file written, when neither name is on the list. */
  readonly loadedThrough?: string;
}

/** Said when a probe throws: fail closed, as a file loaded later. */
export const LANDING_UNKNOWN = "where the write lands could not be told, so it is asked about";

/**
 * Why a write of `path` is loaded later: by its name, by where it lands, by a link of a listed
 * name that leads there (`AGENTS.md -> docs/rules.md` makes `docs/rules.md` what the next
 * session reads), or by a script the host runs later that runs or names it (a git hook's
 * `sh scripts/check.sh`, `"postinstall": "node scripts/post.js"`); else undefined. The disk is
 * asked only when the names alone do not say.
 */
export function whyWriteIsLoadedLater(
  path: string,
  probes: LoadedLaterProbes,
): LoadedLater | undefined {
  let landing: string | undefined;
  let through: LoadedThroughLink | undefined;
  let run: LaterScriptRun | undefined;
  const named = loadedLaterReason(path);
  try {
    landing = probes.writeLanding?.(path);
    if (
      named === undefined &&
      (landing === undefined || loadedLaterReason(landing) === undefined)
    ) {
      through = probes.loadedThrough?.(path);
      run = through === undefined ? probes.laterRun?.(path) : undefined;
    }
  } catch {
    return { reason: LANDING_UNKNOWN };
  }
  if (through !== undefined) return { reason: through.reason, loadedThrough: through.link };
  const reason =
    named ??
    (landing === undefined ? undefined : loadedLaterReason(landing)) ??
    (run === undefined ? undefined : laterRunReason(run));
  if (reason === undefined) return undefined;
  const differs = landing !== undefined && landing !== path.split(/[/\\]+/u).join("/");
  return differs ? { reason, landsOn: landing } : { reason };
}
