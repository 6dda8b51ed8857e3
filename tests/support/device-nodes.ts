import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Whether this process can make a device node under the temporary directory: Linux, root, and
 * CAP_MKNOD (which many containers drop), so asked by trying once (1:3, /dev/null's numbers).
 */
export const CAN_MKNOD: boolean = process.platform === "linux" && tryMknod();

/** For test names: why a test that makes a device node is skipped where it is. */
export const MKNOD_MISSING = "(skipped: needs mknod: Linux, root, and CAP_MKNOD)";

function tryMknod(): boolean {
  const dir = mkdtempSync(join(tmpdir(), "mknod-probe-"));
  try {
    return spawnSync("mknod", [join(dir, "node"), "c", "1", "3"], { stdio: "ignore" }).status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
