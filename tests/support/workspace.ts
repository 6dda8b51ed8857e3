import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A real temp directory holding `workspace/` and a sibling `outside/`, removed by `cleanup`. */
export interface TempWorkspace {
  readonly root: string;
  readonly workspace: string;
  readonly outside: string;
  cleanup(): Promise<void>;
}

export async function makeTempWorkspace(prefix = "agent-ws-"): Promise<TempWorkspace> {
  // realpath: macOS's tmpdir is behind the /var symlink, and the boundary compares real paths.
  const root = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const workspace = join(root, "workspace");
  const outside = join(root, "outside");
  await mkdir(workspace);
  await mkdir(outside);
  return {
    root,
    workspace,
    outside,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
