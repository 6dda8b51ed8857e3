import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A real temp directory holding `ws` and its look-alike sibling `ws-evil` (the CVE shape). */
export interface TempWorkspace {
  readonly base: string;
  readonly ws: string;
  readonly evil: string;
  cleanup(): Promise<void>;
}

export async function makeTempWorkspace(): Promise<TempWorkspace> {
  // realpath: macOS puts tmpdir behind the /var -> /private/var symlink.
  const base = await mkdtemp(join(await realpath(tmpdir()), "files-"));
  const ws = join(base, "ws");
  const evil = join(base, "ws-evil");
  await mkdir(ws);
  await mkdir(evil);
  return { base, ws, evil, cleanup: () => rm(base, { recursive: true, force: true }) };
}
