/**
 * The setup every CLI test file shares: one scripted server for the file, a fresh temp directory
 * per test (removed after it), and a way to run the agent on that workspace against that server.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { TmuxTerminal } from "../support/tmux.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";
import { CLI_PATH, runCli, serverEnv, type CliRun, type Env } from "./cli-process.js";
import { ScriptedChatServer } from "./scripted-chat-server.js";

export interface AgentFixture {
  /** Started before the file's first test, closed after its last. */
  readonly server: ScriptedChatServer;
  /**
   * Made before each test, removed after it. The agent runs in `dir.workspace`, so its
   * `../outside.txt` is `join(dir.root, "outside.txt")`, where the test can look for it.
   */
  readonly dir: TempWorkspace;
  /** `node dist/agent.cjs --workspace <dir.workspace> ARGS` against the server, stdin empty. */
  readonly agent: (args: readonly string[], extraEnv?: Env) => Promise<CliRun>;
  /** The same command as an argv, for runs in a terminal. */
  readonly argv: (args: readonly string[]) => string[];
  /**
   * The same command in a tmux terminal (80x24 unless told), against the server: `steps` drives
   * it, and the terminal is closed after, however they end.
   */
  readonly inTerminal: <T>(
    args: readonly string[],
    steps: (terminal: TmuxTerminal) => Promise<T>,
    options?: TerminalOptions,
  ) => Promise<T>;
}

export interface TerminalOptions {
  readonly columns?: number;
  readonly rows?: number;
  readonly extraEnv?: Env;
}

/** Registers the hooks; call at the top of a test file, outside any `describe`. */
export function useAgentFixture(): AgentFixture {
  let server: ScriptedChatServer | undefined;
  let dir: TempWorkspace | undefined;

  beforeAll(async () => {
    server = await ScriptedChatServer.start();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    dir = await makeTempWorkspace("agent-e2e-");
  });
  afterEach(async () => {
    await dir?.cleanup();
    dir = undefined;
  });

  const fixture: AgentFixture = {
    get server() {
      if (server === undefined) throw new Error("The scripted server is only there inside a test");
      return server;
    },
    get dir() {
      if (dir === undefined) throw new Error("The temp directory is only there inside a test");
      return dir;
    },
    argv: (args) => [process.execPath, CLI_PATH, "--workspace", fixture.dir.workspace, ...args],
    inTerminal: async (args, steps, options = {}) => {
      const terminal = TmuxTerminal.start(fixture.argv(args), {
        env: serverEnv(fixture.server.baseURL, options.extraEnv ?? {}),
        columns: options.columns ?? 80,
        rows: options.rows ?? 24,
      });
      try {
        return await steps(terminal);
      } finally {
        terminal.close();
      }
    },
    agent: (args, extraEnv = {}) =>
      runCli(["--workspace", fixture.dir.workspace, ...args], {
        env: serverEnv(fixture.server.baseURL, extraEnv),
      }),
  };
  return fixture;
}
