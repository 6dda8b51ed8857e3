/**
 * A loaded-later name that is a link (`AGENTS.md -> docs/rules.md`) cannot be bound: a mount
 * follows it. Where it leads is bound instead, which leaves the link itself to the command: it can
 * remove it, retarget it (`ln -sf evil.md AGENTS.md`) or replace it with a file of its own, and the
 * name stays on the list, so a comparison of names alone sees nothing new. So each such link is
 * compared itself, its lstat identity and the text it holds, and a change is named after the
 * command's output. A dangling one (`AGENTS.md -> docs/rules.md`, no rules.md yet) has nothing to
 * bind where it leads: a file the command makes there is named too.
 */
import { linkText, type LoadedLaterPlace } from "../filesystem/index.js";
import { identitiesOf, type Identity } from "./protected-identity.js";

/** What a loaded-later link was before a command. */
export interface LinkBefore {
  readonly entry: LoadedLaterPlace;
  readonly identity: Identity;
  /** The text the link holds, as readlink gives it. */
  readonly target: string | undefined;
  /** For a dangling link: what is where it would lead (nothing, unless something raced it). */
  readonly awaited: Identity;
}

export function linksBefore(entries: readonly LoadedLaterPlace[]): LinkBefore[] {
  return entries
    .filter((entry) => entry.link === true)
    .map((entry) => ({ entry, ...linkNow(entry.path), awaited: awaitedNow(entry) }));
}

/**
 * A note for each link that is not what it was (removed, retargeted or replaced), and for each
 * dangling one whose target the command made.
 */
export function changedLinks(before: readonly LinkBefore[]): string[] {
  return before.flatMap((link) => [...linkChanged(link), ...awaitedMade(link)]);
}

function linkChanged({ entry, identity, target }: LinkBefore): string[] {
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
}

function awaitedMade({ entry, awaited }: LinkBefore): string[] {
  if (entry.wouldLeadTo === undefined || awaitedNow(entry) === awaited) return [];
  const what = awaited === undefined ? "created" : "changed or replaced";
  return [
    `warning: ${entry.wouldLeadTo} was ${what} during this command, where the link ` +
      `${entry.path} leads; ${entry.reason}, and no one was asked about it: check it before then`,
  ];
}

function awaitedNow(entry: LoadedLaterPlace): Identity {
  const target = entry.wouldLeadTo;
  return target === undefined ? undefined : identitiesOf([target], new Map()).get(target);
}

function linkNow(link: string): { identity: Identity; target: string | undefined } {
  return { identity: identitiesOf([link], new Map()).get(link), target: linkText(link) };
}
