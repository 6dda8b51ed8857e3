/**
 * `npm test` and `npm run test:all`: vitest with the given arguments, then one line saying what
 * the run cost: its wall time and the CPU time of vitest and every process it waited for (the
 * CLIs, shells, pwsh and sandboxes the tests start). The gate has a budget in both (README), and a
 * wall time alone hides a suite that only looks fast on a machine with many cores.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");

/**
 * User and system CPU seconds of every child this process has waited for, and of theirs: fields
 * 16 and 17 of /proc/self/stat, in clock ticks. The kernel fixes that tick (USER_HZ) at 100 for
 * /proc on every architecture Node runs on. Elsewhere: undefined (Node has no portable reading).
 */
function childrenCpuSeconds() {
  if (process.platform !== "linux") return undefined;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = (field) => Number(fields[field - 3]);
    return { user: ticks(16) / 100, system: ticks(17) / 100 };
  } catch {
    return undefined;
  }
}

const started = process.hrtime.bigint();
const child = spawn(process.execPath, [vitest, ...process.argv.slice(2)], { stdio: "inherit" });
// Ctrl-C reaches vitest from the terminal itself (the whole process group): it decides how to stop,
// and we report after. SIGTERM and SIGHUP may be sent to this process alone (npm passes them on to
// its child, a CI runner kills one pid): they are passed on to vitest.
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
const waitForVitest = (signal) => {
  if (signal !== "SIGINT") child.kill(signal);
};
for (const signal of STOP_SIGNALS) process.on(signal, waitForVitest);

child.on("exit", (code, signal) => {
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = childrenCpuSeconds();
  const cost =
    cpu === undefined
      ? `${wall.toFixed(0)} s wall (CPU time is read on Linux only)`
      : `${wall.toFixed(0)} s wall, ${(cpu.user + cpu.system).toFixed(0)} s CPU ` +
        `(${cpu.user.toFixed(0)} s user + ${cpu.system.toFixed(0)} s system)`;
  process.stdout.write(`\nvitest ${process.argv.slice(2).join(" ")}: ${cost}\n`);
  for (const stop of STOP_SIGNALS) process.off(stop, waitForVitest);
  // Ended by a signal: end the same way, so npm and the shell see what stopped it.
  if (signal !== null) process.kill(process.pid, signal);
  else process.exitCode = code ?? 1;
});
