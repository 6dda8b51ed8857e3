/**
 * How a stdio server is started, decided before anything runs. It runs on the host, outside the
 * sandbox, with the person's rights, before any call and with nobody asked, so nothing the
 * workspace holds may decide what it runs: not its program (found on a PATH with no relative,
 * empty or workspace entry, or named by an absolute path outside the workspace), not the folder
 * it starts in (npx prefers `./node_modules/.bin`, `python -m` puts the folder first on sys.path,
 * pyenv reads `.python-version` there), not the PATH it hands on. A server that cannot start so is
 * refused with one line and nothing is started; the workspace reaches it as data instead.
 */
import { isWithinRoot } from "../filesystem/index.js";
import { resolveProgram, trustedPathValue, type ProgramResolution } from "../shell/index.js";

/** The variable a stdio server reads the run's workspace from. */
export const WORKSPACE_VARIABLE = "AGENT_WORKSPACE";

/** Where the run is, for its stdio servers. */
export interface StdioPlace {
  /** The run's workspace, its real path: told to each server, never where one starts. */
  readonly workspace: string;
  /** The folder servers start in, chosen by the composition root outside the workspace. */
  readonly startDirectory: string;
  readonly platform: NodeJS.Platform;
}

export interface StdioLaunch {
  /** The program's absolute path: the child does no lookup of its own. */
  readonly command: string;
  readonly args: readonly string[];
  /** The server's own variables, its PATH cleaned, and AGENT_WORKSPACE. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/** The launch of one server, or a one-line Error saying why it is refused. */
export function stdioLaunch(
  setting: { readonly command: string; readonly args?: readonly string[] | undefined },
  env: Readonly<Record<string, string>>,
  hostEnv: Readonly<Record<string, string | undefined>>,
  place: StdioPlace,
): StdioLaunch {
  const { workspace, startDirectory, platform } = place;
  if (isWithinRoot(workspace, startDirectory, platform)) {
    throw new Error(
      `it would start in ${startDirectory}, inside the workspace, whose files would then decide what runs on the host`,
    );
  }
  // The PATH the server would get: its own, when the settings file sets one, else the harness's
  // (which the SDK hands on).
  const own = Object.entries(env).filter(([name]) => isPathName(name, platform));
  const rest = Object.entries(env).filter(([name]) => !isPathName(name, platform));
  const lookupEnv =
    own.length === 0
      ? hostEnv
      : {
          ...Object.fromEntries(
            Object.entries(hostEnv).filter(([name]) => !isPathName(name, platform)),
          ),
          PATH: own.at(-1)?.[1],
        };
  const path = trustedPathValue({ env: lookupEnv, workspace, platform });
  const program = resolveProgram(setting.command, {
    env: path === undefined ? lookupEnv : { ...lookupEnv, PATH: path },
    workspace,
    platform,
  });
  if ("refused" in program) throw new Error(refusal(setting.command, program.refused));
  return {
    command: program.found,
    args: [...(setting.args ?? [])],
    env: {
      ...Object.fromEntries(rest),
      ...(path === undefined ? {} : { PATH: path }),
      [WORKSPACE_VARIABLE]: workspace,
    },
    cwd: startDirectory,
  };
}

function refusal(
  command: string,
  why: Extract<ProgramResolution, { refused: unknown }>["refused"],
): string {
  const named = `its command ${JSON.stringify(command)}`;
  switch (why) {
    case "relative":
      return `${named} is a relative path, which would name a file in whatever folder it starts in; name the program by its absolute path, or by a name on PATH`;
    case "inside-workspace":
      return `${named} is inside the workspace, whose files would then decide what runs on the host; name a program outside the workspace`;
    case "missing":
      return `${named} is not an executable file`;
    case "not-on-path":
      return `${named} is not on PATH outside the workspace (a relative, empty or workspace PATH entry is never searched)`;
  }
}

function isPathName(name: string, platform: NodeJS.Platform): boolean {
  return platform === "win32" ? name.toUpperCase() === "PATH" : name === "PATH";
}
