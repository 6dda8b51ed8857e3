/**
 * The workspace's real path, resolved at a boundary's first decision and kept for its run (issue
 * 32): a realpath costs a look-up per name from the filesystem root, at every write decision.
 *
 * Only the root is kept, never a path below it: every decision still resolves its own path from
 * this root, name by name, so a link, a FIFO or a repository planted inside the workspace between
 * two decisions is seen. What the kept root no longer notices is the workspace itself being
 * moved or an ancestor of it swapped for a link. Nothing the model can ask for does that: the
 * file tools write only inside the workspace, and a sandboxed command sees the workspace as a
 * mount point it cannot rename and its ancestors read-only. A command the person ran on the host
 * could, and decisions then stay checked against the directory the run started in.
 */
import { realpathSync } from "node:fs";

export class RealRootOnce {
  readonly #known = new Map<string, string>();

  /** A failure (a workspace that is missing) is not kept: it throws again at the next call. */
  readonly of = (workspace: string): string => {
    let root = this.#known.get(workspace);
    if (root === undefined) {
      root = realpathSync.native(workspace);
      this.#known.set(workspace, root);
    }
    return root;
  };
}
