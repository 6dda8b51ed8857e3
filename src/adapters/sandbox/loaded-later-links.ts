/**
 * A loaded-later name that is a link (`AGENTS.md -> docs/rules.md`) cannot be bound: a mount
 * follows it. Where it leads is bound instead, which leaves the link itself to the command: it can
 * remove it, retarget it (`ln -sf evil.md AGENTS.md`) or replace it with a file of its own, and the
 * name stays on the list, so a comparison of names alone sees nothing new. So each such link is
 * compared itself, its lstat identity and the text it holds, and a change is named after the
 * command's output.
 */
import { readlinkSync } from "node:fs";
import type { LoadedLaterEntry } from "../filesystem/index.js";
import { identitiesOf, type Identity } from "./protected-identity.js";

/** What a loaded-later link was before a command. */
export interface LinkBefore {
  readonly entry: LoadedLaterEntry;
  readonly identity: Identity;
  /** The text the link holds, as readlink gives it. */
  readonly target: string | undefined;
}

export function linksBefore(entries: readonly LoadedLaterEntry[]): LinkBefore[] {
  return entries
    .filter((entry) => entry.link === true)
    .map((entry) => ({ entry, ...linkNow(entry.path) }));
}

/** A note for each link that is not what it was: removed, retargeted or replaced. */
export function changedLinks(before: readonly LinkBefore[]): string[] {
  return before.flatMap(({ entry, identity, target }) => {
    const now = linkNow(entry.path);
    if (now.identity === identity && now.target === target) return [];
    const was = `${entry.path}, a link to ${JSON.stringify(target ?? "")},`;
    const what =
      now.identity === undefined
        ? "removed"
        : now.target === undefined
          ? "replaced by a file or folder that is not a link"
          : `changed or replaced (it now leads to ${JSON.stringify(now.target)})`;
    return [
      `warning: ${was} was ${what} during this command; ${entry.reason}, and no one was asked ` +
        `about it: check it before then`,
    ];
  });
}

function linkNow(link: string): { identity: Identity; target: string | undefined } {
  return { identity: identitiesOf([link], new Map()).get(link), target: readLink(link) };
}

function readLink(link: string): string | undefined {
  try {
    return readlinkSync(link);
  } catch {
    return undefined; // gone, or no longer a link
  }
}
