/**
 * Files of the project that a later session, an editor, CI or the shell loads or runs
 * (core/policy/loaded-later-files.ts) are asked about when a file tool writes them; where that is
 * the rule (chapter 4), a sandboxed command must not write them unasked either. The person
 * approves a command (`npm test`), not what the code it runs writes, and that code may be a
 * file the model wrote without asking. So each command finds those that exist read-only (and
 * where a link of such a name leads: `AGENTS.md -> docs/rules.md`), and one it creates is named
 * after its output. A bind needs something to mount on: one not made yet cannot be kept from
 * being made, only named. The walk is the filesystem adapter's (loaded-later-walk.ts).
 */
import {
  LoadedLaterScanError,
  loadedLaterPlaces,
  type LoadedLaterClassifier,
  type LoadedLaterPlace,
} from "../filesystem/index.js";
import { identitiesOf, type Identities } from "./protected-identity.js";
import { changedLinks, linksBefore, type LinkBefore } from "./loaded-later-links.js";
import { SandboxContentError } from "./sandbox-errors.js";

export type { LoadedLaterClassifier, LoadedLaterPlace };

/** What exists now, to bind and to compare with after the command; throws SandboxContentError. */
export function loadedLaterBefore(
  workspace: string,
  classify: LoadedLaterClassifier,
): LoadedLaterPlace[] {
  try {
    return loadedLaterPlaces(workspace, classify);
  } catch (error) {
    if (!(error instanceof LoadedLaterScanError)) throw error;
    throw new SandboxContentError(
      `The sandbox refuses to run this command: ${error.message}, to keep them read-only; ` +
        `${error.remedy}, or run with --sandbox off`,
    );
  }
}

/** What to bind read-only: each file or folder, and where each link leads in the workspace. */
export function loadedLaterBinds(entries: readonly LoadedLaterPlace[]): string[] {
  return entries.flatMap((entry) =>
    entry.leadsTo !== undefined ? [entry.leadsTo] : entry.link === true ? [] : [entry.path],
  );
}

/** What was there before a command, to say after it what the command made or changed. */
export interface LoadedLaterBefore {
  readonly entries: readonly LoadedLaterPlace[];
  /** The identity of each bound file: a hard link, another name, can still change it. */
  readonly identities: Identities;
  /** Each link of a listed name as it was: never bound, so the command could change it. */
  readonly links: readonly LinkBefore[];
}

export function loadedLaterSnapshot(entries: readonly LoadedLaterPlace[]): LoadedLaterBefore {
  return {
    entries,
    identities: identitiesOf(loadedLaterBinds(entries), new Map()),
    links: linksBefore(entries),
  };
}

/**
 * A note for each loaded-later file, folder or link in `workspace` now that was not there
 * before (the command made it), for each bound one that changed all the same (through a hard
 * link), and for each link that was removed, retargeted or replaced. A command that made too
 * many folders to look through is named.
 */
export function madeDuringCommand(
  workspace: string,
  classify: LoadedLaterClassifier,
  snapshot: LoadedLaterBefore,
): string[] {
  const before = snapshot.entries;
  const now = identitiesOf([...snapshot.identities.keys()], new Map());
  const changed = [...snapshot.identities]
    .filter(([bound, identity]) => now.get(bound) !== identity)
    .map(
      ([bound]) =>
        `warning: ${bound} was changed during this command through another name (a hard link), ` +
        `though it was read-only; a later session, an editor or CI loads it: check it before then`,
    );
  changed.push(...changedLinks(snapshot.links));
  let after: LoadedLaterPlace[];
  try {
    after = loadedLaterPlaces(workspace, classify);
  } catch (error) {
    if (!(error instanceof LoadedLaterScanError)) throw error;
    return [
      ...changed,
      `warning: after this command ${error.message}: check whether it created one ` +
        `(AGENTS.md, .github/, .vscode/, ...) before then`,
    ];
  }
  const known = new Set(before.map((entry) => entry.path));
  return [
    ...changed,
    ...after
      .filter((entry) => !known.has(entry.path))
      .map(
        (entry) =>
          `warning: ${entry.path} was created during this command; ${entry.reason}, and no one ` +
          `was asked about it: check it before then`,
      ),
  ];
}
