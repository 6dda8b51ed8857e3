/**
 * One racing consumer for the approval-store test: loads, prints `ready`, waits for the start file,
 * then tries to consume the grant for DIGEST once and prints `won` or `lost`.
 */
import { existsSync } from "node:fs";
import { ApprovalStore } from "../../src/adapters/state/index.js";

const [stateDirectory, digest, startFile, runId] = process.argv.slice(2);
if (stateDirectory === undefined || digest === undefined || startFile === undefined) {
  throw new Error("usage: consume-grant-process STATE_DIR DIGEST START_FILE RUN_ID");
}
const store = new ApprovalStore(stateDirectory);
process.stdout.write("ready\n");
while (!existsSync(startFile)) {
  // A busy wait: every process leaves the start line within the same few microseconds.
}
const grant = store.consumeApprovalGrant(runId ?? "run", digest);
process.stdout.write(grant === undefined ? "lost\n" : "won\n");
