#!/usr/bin/env node
import { EXIT } from "./cli/exit-codes.js";
import { runCli } from "./cli/main.js";
import { processIo } from "./cli/process-io.js";

const exitCode = await runCli(processIo(process.argv.slice(2)));

// After Ctrl-C a cancelled request may leave the SDK's retry timer pending: leave now. Otherwise
// let stdout drain on its own, so a piped final answer is never cut short.
if (exitCode === EXIT.cancelled) process.exit(exitCode);
process.exitCode = exitCode;
