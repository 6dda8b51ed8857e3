import { lstatSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { errorCode } from "../filesystem/index.js";
import { SandboxSetupError } from "./sandbox-errors.js";

/** The name tests and readers know a credential mask's source by. */
export const MASK_FILE_NAME = "credential-mask";

/**
 * An empty, read-only regular file of the harness's own, bound read-only over each credential file
 * so it reads as empty. /dev/null will not do: bwrap mounts binds `nodev`, so reading it fails with
 * "Permission denied" (npm then stops at ~/.npmrc), and a device bound without `nodev` takes
 * writes and timestamps through its read-only mount.
 *
 * One per user, `agent-sandbox-<uid>/credential-mask` in the temp directory, so runs leave nothing
 * new behind. bwrap follows links in a bind's source, so it is used only when the directory is
 * ours, private and no link, and the file a regular empty one; anything else there (another user
 * got the name first) is left alone and a fresh private directory used instead.
 */
export function makeEmptyFile(
  uid: number | undefined = process.getuid?.(),
  temp: string = tmpdir(),
): string {
  try {
    const shared = path.join(temp, `agent-sandbox-${String(uid ?? "user")}`);
    return usableMask(shared, uid) ?? freshMask(temp);
  } catch (error) {
    // Fail closed: without it the credentials could not be masked, so nothing runs.
    throw new SandboxSetupError(
      `The sandbox could not make the empty file that masks your credentials in ${temp} (${errorCode(error) ?? "error"})`,
    );
  }
}

function usableMask(directory: string, uid: number | undefined): string | undefined {
  try {
    mkdirSync(directory, { mode: 0o700 });
  } catch (error) {
    if (errorCode(error) !== "EEXIST") return undefined;
  }
  const folder = lstatSync(directory);
  const ours = (owner: number): boolean => uid === undefined || owner === uid;
  if (!folder.isDirectory() || !ours(folder.uid) || (folder.mode & 0o077) !== 0) return undefined;
  const file = path.join(directory, MASK_FILE_NAME);
  try {
    writeFileSync(file, "", { mode: 0o444, flag: "wx" });
  } catch (error) {
    if (errorCode(error) !== "EEXIST") return undefined;
  }
  const stats = lstatSync(file);
  return stats.isFile() && stats.size === 0 && ours(stats.uid) ? file : undefined;
}

function freshMask(temp: string): string {
  const file = path.join(mkdtempSync(path.join(temp, "agent-sandbox-")), MASK_FILE_NAME);
  writeFileSync(file, "", { mode: 0o444, flag: "wx" });
  return file;
}
