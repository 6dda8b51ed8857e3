import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { errorCode } from "../filesystem/index.js";
import { SandboxSetupError } from "./sandbox-errors.js";

/** The name tests and readers know a credential mask's source by. */
export const MASK_FILE_NAME = "credential-mask";

/**
 * An empty, read-only regular file of the harness's own (in a fresh private temp directory), bound
 * read-only over each credential file so it reads as empty. /dev/null will not do: bwrap mounts
 * binds `nodev`, so reading it fails with "Permission denied" (npm then stops at ~/.npmrc), and a
 * device bound without `nodev` takes writes and timestamps through its read-only mount.
 */
export function makeEmptyFile(): string {
  try {
    const directory = mkdtempSync(path.join(tmpdir(), "agent-sandbox-"));
    const file = path.join(directory, MASK_FILE_NAME);
    writeFileSync(file, "", { mode: 0o444, flag: "wx" });
    return file;
  } catch (error) {
    // Fail closed: without it the credentials could not be masked, so nothing runs.
    throw new SandboxSetupError(
      `The sandbox could not make the empty file that masks your credentials in ${tmpdir()} (${errorCode(error) ?? "error"})`,
    );
  }
}
