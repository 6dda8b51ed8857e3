import { spawn, type ChildProcess } from "node:child_process";

/**
 * How to kill a command together with everything it started. POSIX: the child leads its own
 * process group and the whole group gets SIGKILL. Windows has no process groups we can signal:
 * `taskkill /T /F` walks the tree, and must run while the root is still alive to find it.
 */
export type KillTreeStrategy =
  { readonly kind: "process-group" } | { readonly kind: "taskkill"; readonly taskkillPath: string };

export function killTreeStrategyFor(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
): KillTreeStrategy {
  if (platform !== "win32") return { kind: "process-group" };
  const systemRoot = windowsSystemRoot(env);
  return { kind: "taskkill", taskkillPath: `${systemRoot}\\System32\\taskkill.exe` };
}

/** `%SystemRoot%` when it is an absolute drive path, else the default install location. */
export function windowsSystemRoot(env: Readonly<Record<string, string | undefined>>): string {
  const fromEnv = Object.entries(env).find(([name]) => name.toLowerCase() === "systemroot")?.[1];
  if (fromEnv !== undefined && /^[A-Za-z]:\\[^"]*$/.test(fromEnv)) {
    return fromEnv.replace(/\\+$/, "");
  }
  return "C:\\Windows";
}

export function killProcessTree(child: ChildProcess, strategy: KillTreeStrategy): void {
  const pid = child.pid;
  if (pid === undefined) return;
  switch (strategy.kind) {
    case "process-group":
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      return;
    case "taskkill": {
      const killer = spawn(strategy.taskkillPath, ["/T", "/F", "/PID", String(pid)], {
        stdio: "ignore",
        shell: false,
        windowsHide: true,
      });
      // The root must die even if taskkill is missing or fails.
      const killRoot = (): void => {
        child.kill("SIGKILL");
      };
      killer.once("error", killRoot);
      killer.once("exit", killRoot);
      return;
    }
  }
}
