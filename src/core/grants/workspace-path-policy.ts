/**
 * The seed's `authorizeWorkspacePath`: P04 authorizes a read or a write by where its path lands.
 * First by name, without the disk (an absolute path or one whose `..` climbs above the root names
 * a place outside); then, on the P04 path, as the file tools will resolve it, links followed, so a
 * link that leads out is outside too. A decision says "inside" only after both.
 */
import type { WriteTarget } from "../ports/filesystem.js";
import { namesAPlaceOutside } from "../policy/names-outside.js";

/** Where a read or a write would land; reads treat no path inside the workspace as protected. */
export type PathTarget = WriteTarget;

/**
 * Resolves a path as the file tools will (links followed), without opening it. It throws when it
 * cannot say, and the call is then denied.
 */
export type PathClassifier = (effect: "read" | "write", path: string) => PathTarget;

export type PathVerdict =
  | { readonly target: "inside"; readonly checked: "by name" | "on disk" }
  | {
      readonly target: "outside" | "protected";
      readonly detail: string;
    };

export function workspacePathVerdict(
  effect: "read" | "write",
  path: string,
  classify: PathClassifier | undefined,
): PathVerdict {
  if (namesAPlaceOutside(path)) {
    return {
      target: "outside",
      detail: `${JSON.stringify(path)} names a place outside the workspace`,
    };
  }
  if (classify === undefined) return { target: "inside", checked: "by name" };
  let target: unknown;
  try {
    target = classify(effect, path);
  } catch {
    target = undefined;
  }
  switch (target) {
    case "inside":
      return { target: "inside", checked: "on disk" };
    case "git-metadata":
      return {
        target: "protected",
        detail: `${JSON.stringify(path)} is git metadata, which the agent may not change`,
      };
    case "harness-file":
      return {
        target: "protected",
        detail: `${JSON.stringify(path)} is one of the harness's own files, which the agent may not change`,
      };
    case "host-config":
      return {
        target: "protected",
        detail: `${JSON.stringify(path)} is a file the host loads or runs (shell start-up, git or harness config, a program on PATH), which the agent may not change`,
      };
    case "outside":
      return {
        target: "outside",
        detail: `${JSON.stringify(path)} resolves outside the workspace (through a link, or it is not a workspace path)`,
      };
    default:
      // A classifier that threw or broke its contract: the path is not known to be inside.
      return {
        target: "outside",
        detail: `${JSON.stringify(path)} could not be resolved safely, so it is not known to be inside the workspace`,
      };
  }
}
