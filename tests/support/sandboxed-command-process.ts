/**
 * Runs one command in the real BubblewrapRunner and prints its result as one line of JSON. The
 * sandbox tests start it with descriptors of their choosing already open (as a parent shell, make's
 * jobserver or systemd could leave them), to see what reaches the sandboxed command.
 */
import { resolveExecutable } from "../../src/adapters/shell/index.js";
import { hostEnvironmentRunner } from "./bubblewrap.js";

const [workspace, command] = process.argv.slice(2);
if (workspace === undefined || command === undefined) {
  throw new Error("usage: sandboxed-command-process WORKSPACE COMMAND");
}
const lookup = { env: process.env, workspace: "/nonexistent", platform: "linux" as const };
const bwrapPath = resolveExecutable("bwrap", lookup);
const bash = resolveExecutable("bash", lookup);
if (bwrapPath === undefined || bash === undefined) throw new Error("needs bwrap and bash");
const runner = hostEnvironmentRunner({ bwrapPath, bash, workspace });
const result = await runner.run(command, workspace, { timeoutMs: 20_000, maxOutputBytes: 65_536 });
process.stdout.write(`${JSON.stringify(result)}\n`);
