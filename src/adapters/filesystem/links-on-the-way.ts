/**
 * The links a path passes through on its way to where it leads, after its own first hop:
 * `AGENTS.md -> notes.md`, `notes.md -> docs/rules.md` passes `notes.md`; `AGENTS.md ->
 * docs/rules.md` with `docs -> shared` passes `docs`. Binding where a loaded-later link leads keeps
 * that file, not the way to it: a command could retarget any of these and the host would load
 * another file through the same name. None can be bound (a mount follows it), so each is compared
 * before and after a command instead.
 */
import path from "node:path";
import { linkText } from "./link-text.js";
import { MAX_SYMLINK_HOPS } from "./safe-path.js";

/** Each link met resolving `start`'s target, as absolute paths, in the order met; `start` not. */
export function linksOnTheWay(start: string): string[] {
  const met: string[] = [];
  const first = linkText(start);
  if (first === undefined) return met;
  let current = path.dirname(start);
  let pending = steps(first);
  if (path.isAbsolute(first)) current = path.parse(start).root;
  for (let hops = 0; pending.length > 0 && hops <= MAX_SYMLINK_HOPS;) {
    const [name, ...rest] = pending;
    pending = rest;
    if (name === undefined || name === "" || name === ".") continue;
    if (name === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, name);
    const target = linkText(next);
    if (target === undefined) {
      current = next; // a folder, a file, or nothing yet: the way goes on (or ends) here
      continue;
    }
    hops += 1;
    if (!met.includes(next)) met.push(next);
    pending = [...steps(target), ...pending];
    if (path.isAbsolute(target)) current = path.parse(next).root;
  }
  return met;
}

function steps(target: string): string[] {
  return target.split(path.sep);
}
