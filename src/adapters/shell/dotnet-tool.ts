import { readdirSync } from "node:fs";
import path from "node:path";
import {
  nodeFileProbe,
  resolveExecutable,
  type ExecutableLookup,
} from "./executable-resolution.js";

/** How to start PowerShell installed with `dotnet tool install --global PowerShell`. */
export interface DotnetToolPowerShell {
  /** The `dotnet` found on the trusted PATH (never in the workspace). */
  readonly dotnet: string;
  /** The tool's own pwsh.dll, passed to `dotnet` as its first argument. */
  readonly entryPoint: string;
}

/**
 * `dotnet tool install --global PowerShell` puts a shim at ~/.dotnet/tools/pwsh that starts
 * `dotnet <tools>/.store/powershell/<v>/powershell/<v>/tools/<tfm>/any/<unix|win>/pwsh.dll` by the
 * bare name `dotnet`, and .NET's Process.Start looks a bare name up in the current directory (the
 * workspace) before PATH: a `dotnet` file the model wrote there would run, on the host, for every
 * command. So the shim itself never runs: the harness starts that pwsh.dll with the dotnet on the
 * trusted PATH. `undefined`: `pwsh` is not such a shim (a native pwsh runs as it is);
 * "unusable": it is one, but there is no trusted dotnet or not exactly one pwsh.dll to run.
 */
export function findDotnetToolPowerShell(
  pwsh: string,
  lookup: ExecutableLookup,
): DotnetToolPowerShell | "unusable" | undefined {
  const windows = lookup.platform === "win32";
  const paths = windows ? path.win32 : path.posix;
  // A pwsh on PATH may be a link to the shim; the store sits beside the shim itself.
  const shim = (lookup.probe ?? nodeFileProbe).realpath(pwsh) ?? pwsh;
  const store = paths.join(paths.dirname(shim), ".store", "powershell");
  const versions = children(store);
  if (versions.length === 0) return undefined;
  const dlls: string[] = [];
  for (const version of versions) {
    const tools = paths.join(store, version, "powershell", version, "tools");
    for (const framework of children(tools)) {
      const folder = paths.join(tools, framework, "any", windows ? "win" : "unix");
      if (children(folder).includes("pwsh.dll")) dlls.push(paths.join(folder, "pwsh.dll"));
    }
  }
  const dotnet = resolveExecutable(windows ? "dotnet.exe" : "dotnet", lookup);
  const [entryPoint, ...others] = dlls;
  if (dotnet === undefined || entryPoint === undefined || others.length > 0) return "unusable";
  return { dotnet, entryPoint };
}

function children(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}
