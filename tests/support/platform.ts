import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Whether this process may create a symbolic link to a file. POSIX always may; Windows only with
 * Developer Mode or an elevated token (CI runners have one), so there we ask by trying once.
 * Directory links in tests use junctions instead, which Windows allows everyone.
 */
export const CAN_SYMLINK_FILES: boolean = process.platform !== "win32" || trySymlinkFile();

/** For test names: why a test that links a file is skipped where it is. */
export const FILE_SYMLINKS_REASON =
  "(needs file symlinks: on Windows, Developer Mode or an elevated shell)";

function trySymlinkFile(): boolean {
  const dir = mkdtempSync(join(tmpdir(), "symlink-probe-"));
  try {
    writeFileSync(join(dir, "target"), "");
    symlinkSync(join(dir, "target"), join(dir, "link"), "file");
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
