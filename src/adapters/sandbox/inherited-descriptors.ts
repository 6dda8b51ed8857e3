import { readdirSync, readFileSync } from "node:fs";
import { errorCode } from "../filesystem/index.js";
import { SandboxSetupError } from "./sandbox-errors.js";

/** O_CLOEXEC as /proc/<pid>/fdinfo prints it in `flags:` (octal, asm-generic/fcntl.h). */
const O_CLOEXEC = 0o2000000;

/**
 * The descriptors above stdio that this process holds without close-on-exec, which every child it
 * spawns inherits: the ones the harness's own parent left open (a log file, make's jobserver, a
 * socket). Node marks only the low ones close-on-exec at start-up, and neither spawn nor bwrap
 * closes the rest, so without a cover they reach the sandboxed command, where writing to one
 * writes outside the workspace whatever the mounts say. Node's own descriptors are all
 * close-on-exec. Fails closed: a descriptor table that cannot be read is a setup failure.
 */
export function inheritedDescriptors(proc = "/proc/self"): number[] {
  let names: string[];
  try {
    names = readdirSync(`${proc}/fd`);
  } catch (error) {
    throw new SandboxSetupError(
      `The sandbox cannot list the descriptors a command would inherit (${proc}/fd: ${
        errorCode(error) ?? "error"
      })`,
    );
  }
  const inherited: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isSafeInteger(fd) || fd < 3) continue;
    const flags = descriptorFlags(proc, fd);
    // Gone since the listing (the listing's own descriptor, a file just closed): nothing to pass on.
    if (flags === undefined) continue;
    if ((flags & O_CLOEXEC) === 0) inherited.push(fd);
  }
  return inherited.sort((a, b) => a - b);
}

function descriptorFlags(proc: string, fd: number): number | undefined {
  let text: string;
  try {
    text = readFileSync(`${proc}/fdinfo/${String(fd)}`, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw new SandboxSetupError(
      `The sandbox cannot read the flags of descriptor ${String(fd)} (${errorCode(error) ?? "error"})`,
    );
  }
  const match = /^flags:\s*([0-7]+)$/m.exec(text);
  if (match?.[1] === undefined) {
    throw new SandboxSetupError(`The sandbox cannot read the flags of descriptor ${String(fd)}`);
  }
  return Number.parseInt(match[1], 8);
}
