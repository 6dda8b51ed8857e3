#!/usr/bin/env node
import { EXIT } from "./cli/exit-codes.js";
import { runCli } from "./cli/main.js";
import { processIo } from "./cli/process-io.js";

// No top-level await: the bundle (scripts/bundle.js) is CommonJS, which starts faster.
void runCli(processIo(process.argv.slice(2))).then((exitCode) => {
  // After Ctrl-C a cancelled request may leave the SDK's retry timer pending: leave now. Otherwise
  // let stdout drain on its own, so a piped final answer is never cut short.
  if (exitCode === EXIT.cancelled) process.exit(exitCode);
  process.exitCode = exitCode;
});
