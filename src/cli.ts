#!/usr/bin/env node
import { EXIT } from "./cli/exit-codes.js";
import { runCli } from "./cli/main.js";
import { processIo } from "./cli/process-io.js";

// A reader that went away (`agent runs | head -1`) only ends what it would have read: the run
// goes on to its own exit code instead of dying of an unhandled EPIPE with a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
});

// No top-level await: the bundle (scripts/bundle.js) is CommonJS, which starts faster.
void runCli(processIo(process.argv.slice(2))).then((exitCode) => {
  // After Ctrl-C a cancelled request may leave the SDK's retry timer pending: leave now. Otherwise
  // let stdout drain on its own, so a piped final answer is never cut short.
  if (exitCode === EXIT.cancelled) process.exit(exitCode);
  process.exitCode = exitCode;
});
