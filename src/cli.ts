#!/usr/bin/env node
import { EXIT_OUTPUT_CLOSED, isClosedOutput, stopsWhenStderrCloses } from "./cli/closed-output.js";
import { EXIT } from "./cli/exit-codes.js";
import { runCli } from "./cli/main.js";
import { processIo } from "./cli/process-io.js";
import { exitOnTerminationSignals } from "./cli/termination-signals.js";
import { failIfLeftUnsettled } from "./cli/unsettled-exit.js";

const argv = process.argv.slice(2);

// A reader that went away (`agent runs | head -1`) only ends what it would have read: the run
// goes on to its own exit code instead of dying of an unhandled EPIPE with a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (!isClosedOutput(error)) throw error;
});

// `agent runs 2>&1 | head -1`: the same for stderr, except that it stops a run (nobody would see
// its approval prompt), with the exit code a shell gives a command a closed pipe ended. Which
// one argv asks for is worked out when stderr closes, not on every start (a second parse of
// argv, about 1 ms), from the environment and directory the command started with.
const startedIn = { env: { ...process.env }, cwd: process.cwd() };
process.stderr.on("error", (error: NodeJS.ErrnoException) => {
  if (!isClosedOutput(error)) throw error;
  if (stopsWhenStderrCloses(argv, startedIn.env, startedIn.cwd)) process.exit(EXIT_OUTPUT_CLOSED);
});

// `timeout`, `docker stop` or a closed terminal: leave as the signal would, clean-up first.
exitOnTerminationSignals(process);

// A prompt or run left waiting on nothing must never pass for a success (unsettled-exit.ts).
let finished = false;
failIfLeftUnsettled(process, process.stderr, () => finished);

// No top-level await: the bundle (scripts/bundle.js) is CommonJS, which starts faster.
void runCli(processIo(argv)).then((exitCode) => {
  finished = true;
  // After Ctrl-C a cancelled request may leave the SDK's retry timer pending: leave now. Otherwise
  // let stdout drain on its own, so a piped final answer is never cut short.
  if (exitCode === EXIT.cancelled) process.exit(exitCode);
  process.exitCode = exitCode;
  // Once the loop is empty, everything the run started has ended (output written, children
  // reaped, files closed): node's own teardown of the environment after that (~3 ms, handles and
  // heap freed one by one) is work nobody waits for, so leave with the same code instead.
  process.once("beforeExit", () => process.exit());
});
