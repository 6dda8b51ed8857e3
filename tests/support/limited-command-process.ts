/**
 * Runs one command in the real BubblewrapRunner under small resource limits and prints its result
 * as one line of JSON. The fork-bomb test starts it as an unprivileged user when the tests run as
 * root: the kernel never applies RLIMIT_NPROC to root, so only there does the limit show.
 */
import { parseResourceLimits } from "../../src/adapters/sandbox/index.js";
import { BubblewrapRunner } from "../../src/adapters/sandbox/bubblewrap.js";
import { resolveExecutable } from "../../src/adapters/shell/index.js";

const [workspace, command, ...settings] = process.argv.slice(2);
if (workspace === undefined || command === undefined) {
  throw new Error("usage: limited-command-process WORKSPACE COMMAND [NAME=VALUE...]");
}
const lookup = { env: process.env, workspace: "/nonexistent", platform: "linux" as const };
const [bwrapPath, bash, prlimitPath] = ["bwrap", "bash", "prlimit"].map((name) =>
  resolveExecutable(name, lookup),
);
if (bwrapPath === undefined || bash === undefined || prlimitPath === undefined) {
  throw new Error("needs bwrap, bash and prlimit");
}
const runner = new BubblewrapRunner({
  bwrapPath,
  shell: { executable: bash, kind: "bash" },
  workspace,
  home: undefined,
  network: false,
  environment: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8" },
  limits: { prlimitPath, values: parseResourceLimits(settings) },
});
const result = await runner.run(command, workspace, { timeoutMs: 30_000, maxOutputBytes: 8192 });
process.stdout.write(`${JSON.stringify(result)}\n`);
