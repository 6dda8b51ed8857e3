import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, readdirSync, readFileSync, watch } from "node:fs";
import {
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { homedir, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { MASK_FILE_NAME } from "../../../src/adapters/sandbox/empty-file.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkspaceOutputStore } from "../../../src/adapters/filesystem/index.js";
import {
  BubblewrapRunner,
  type BubblewrapRunnerOptions,
  NESTED_GIT_DEPTH,
  NESTED_GIT_DIRECTORY_BUDGET,
  NESTED_GIT_LIMIT,
} from "../../../src/adapters/sandbox/bubblewrap.js";
import { probeSandbox } from "../../../src/adapters/sandbox/bubblewrap-probe.js";
import { liveHostPaths, type HostPaths } from "../../../src/adapters/sandbox/proc-masks.js";
import { sandboxHardening } from "../../../src/adapters/sandbox/sandbox-hardening.js";
import { buildCommandEnvironment } from "../../../src/adapters/shell/command-environment.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";
import {
  SandboxContentError,
  SandboxSetupError,
} from "../../../src/adapters/sandbox/sandbox-errors.js";
import { createShellExecution } from "../../../src/adapters/execution/shell-execution.js";
import { CommandStartError, type CommandResult } from "../../../src/core/ports/command-runner.js";
import { hostEnvironmentRunner } from "../../support/bubblewrap.js";
import { withEnglishMessages } from "../../support/english-messages.js";
import { runError } from "../../support/run-error.js";

const BASH = hostExecutable("bash");
const SUITE =
  BWRAP === undefined || BASH === undefined
    ? "BubblewrapRunner (skipped: needs Linux with bwrap and bash on PATH; CI installs bubblewrap)"
    : "BubblewrapRunner with real bubblewrap";

const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };
const SECRET = "sk-test-never-inside";

function ok(output: string, notes?: readonly string[]): CommandResult {
  return { exitCode: 0, output, truncated: false, timedOut: false, ...(notes && { notes }) };
}

describe.skipIf(BWRAP === undefined || BASH === undefined)(SUITE, () => {
  const bwrapPath = BWRAP ?? "";
  const bash = BASH ?? "";
  let base: string;
  let ws: string;

  beforeEach(async () => {
    base = await mkdtemp(join(await realpath(tmpdir()), "bwrap-"));
    ws = join(base, "ws");
    await mkdir(ws);
    await mkdir(join(base, "ws-evil"));
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  function runner(options: { network?: boolean; workspace?: string; shell?: string } = {}) {
    return new BubblewrapRunner({
      bwrapPath,
      shell: { executable: options.shell ?? bash, kind: "bash" },
      workspace: options.workspace ?? ws,
      home: homedir(),
      network: options.network ?? false,
      environment: buildCommandEnvironment(
        withEnglishMessages({ ...process.env, OPENAI_API_KEY: SECRET, GITHUB_TOKEN: SECRET }),
        { passEnv: [], platform: "linux" },
      ),
    });
  }

  /** A runner with the host's environment that binds `harnessFiles` read-only. */
  function guardedRunner(harnessFiles: readonly string[], workspace = ws): BubblewrapRunner {
    return hostEnvironmentRunner({ bwrapPath, bash, workspace, harnessFiles });
  }

  function run(command: string, options: Parameters<typeof runner>[0] = {}) {
    return runner(options).run(command, options.workspace ?? ws, LIMITS);
  }

  it("lets a command write inside the workspace, and passes its exit code through", async () => {
    expect(await run("printf hi > made.txt && cat made.txt")).toEqual(ok("hi"));
    expect(await readFile(join(ws, "made.txt"), "utf8")).toBe("hi");
    expect(await run("exit 42")).toEqual({
      exitCode: 42,
      output: "",
      truncated: false,
      timedOut: false,
    });
    expect((await run("kill -9 $$")).exitCode).toBe(137);
  });

  it("cannot write to /etc or $HOME", async () => {
    const target = `agent-sandbox-test-${String(process.pid)}`;
    const result = await run(`touch /etc/${target}; touch "$HOME/${target}"`);
    // A HOME under /tmp (a scratch HOME, CI's) lies in the sandbox's private tmpfs: what touch
    // says there varies, and what counts is that nothing reached the host (checked below).
    const homeInPrivateTmp = homedir().startsWith("/tmp/");
    expect(homeInPrivateTmp ? result.output.split("\n")[0] : result).toEqual(
      homeInPrivateTmp
        ? `[stderr] touch: cannot touch '/etc/${target}': Read-only file system`
        : {
            exitCode: 1,
            output:
              `[stderr] touch: cannot touch '/etc/${target}': Read-only file system\n` +
              `[stderr] touch: cannot touch '${homedir()}/${target}': Read-only file system\n`,
            truncated: false,
            timedOut: false,
          },
    );
    const escaped = [`/etc/${target}`, join(homedir(), target)].filter((path) => existsSync(path));
    await Promise.all(escaped.map((path) => rm(path, { force: true })));
    expect(escaped).toEqual([]);
  });

  it("cannot write to a sibling of the workspace that shares its name as a prefix", async () => {
    const target = join(base, "ws-evil", "x");
    // Under /tmp the sibling is hidden by the private tmpfs; elsewhere it is read-only.
    const why = base.startsWith("/tmp/") ? "No such file or directory" : "Read-only file system";
    expect(await run(`touch '${target}'`)).toEqual({
      exitCode: 1,
      output: `[stderr] touch: cannot touch '${target}': ${why}\n`,
      truncated: false,
      timedOut: false,
    });
    expect(existsSync(target)).toBe(false);
  });

  it("keeps .git/config and .git/hooks read-only, and .git itself in place", async () => {
    await mkdir(join(ws, ".git", "hooks"), { recursive: true });
    await writeFile(join(ws, ".git", "config"), "[core]\n");
    const result = await run(
      "printf evil >> .git/config; touch .git/hooks/x; rm -rf .git 2>/dev/null; echo rm=$?",
    );
    expect(result).toEqual({
      exitCode: 0,
      output:
        `[stderr] ${bash}: line 1: .git/config: Read-only file system\n` +
        "[stderr] touch: cannot touch '.git/hooks/x': Read-only file system\n" +
        "rm=1\n",
      truncated: false,
      timedOut: false,
    });
    expect(await readFile(join(ws, ".git", "config"), "utf8")).toBe("[core]\n");
    expect(existsSync(join(ws, ".git", "hooks", "x"))).toBe(false);
  });

  it("keeps a worktree's .git file read-only", async () => {
    await writeFile(join(ws, ".git"), "gitdir: /elsewhere\n");
    expect(await run("printf evil > .git")).toEqual({
      exitCode: 1,
      output: `[stderr] ${bash}: line 1: .git: Read-only file system\n`,
      truncated: false,
      timedOut: false,
    });
    expect(await readFile(join(ws, ".git"), "utf8")).toBe("gitdir: /elsewhere\n");
  });

  it("refuses a workspace whose .git is a symlink, since a command could swap the link", async () => {
    await mkdir(join(ws, "gitdata"));
    await writeFile(join(ws, "gitdata", "config"), "[core]\n");
    await symlink("gitdata", join(ws, ".git"));
    const error = await runError(run("rm .git && mkdir .git && echo evil > .git/config"));
    expect(error).toBeInstanceOf(SandboxContentError);
    expect((error as Error).message).toBe(symlinkedGit(ws));
    expect(await readlink(join(ws, ".git"))).toBe("gitdata");
    expect(await readFile(join(ws, "gitdata", "config"), "utf8")).toBe("[core]\n");
  });

  it("refuses a .git symlink that leads outside or nowhere just the same", async () => {
    await symlink(join(base, "ws-evil"), join(ws, ".git"));
    expect(await runError(run("true"))).toEqual(new SandboxContentError(symlinkedGit(ws)));
    await rm(join(ws, ".git"));
    await symlink("missing", join(ws, ".git"));
    expect(await runError(run("true"))).toEqual(new SandboxContentError(symlinkedGit(ws)));
  });

  it("keeps auto and required in the sandbox, refusing each command, since a command could plant the link", async () => {
    await symlink(join(base, "ws-evil"), join(ws, ".git"));
    const options = {
      network: false,
      shell: "posix",
      workspace: ws,
      env: process.env,
      platform: "linux",
      passEnv: [],
    } as const;
    for (const sandbox of ["auto", "required"] as const) {
      const execution = await createShellExecution({ ...options, sandbox });
      expect(execution.environment.status().kind).toBe("isolated");
      expect(execution.fallbackReason).toBeUndefined();
      await expect(execution.runner.run("true", ws, LIMITS)).rejects.toEqual(
        new SandboxContentError(symlinkedGit(ws)),
      );
    }
  });

  it("keeps nested repositories' .git read-only down to four levels, not in node_modules", async () => {
    const repositories = ["sub", "a/b/c/d", "a/b/c/d/e", "node_modules/pkg"];
    for (const repository of repositories) {
      await mkdir(join(ws, repository, ".git", "hooks"), { recursive: true });
    }
    // A submodule's .git is a file naming its git directory; a symlinked one has its target bound.
    await mkdir(join(ws, "lib"));
    await writeFile(join(ws, "lib", ".git"), "gitdir: ../.git/modules/lib\n");
    await mkdir(join(ws, "linked", "gitdata", "hooks"), { recursive: true });
    await symlink("gitdata", join(ws, "linked", ".git"));
    const plant = [...repositories, "linked"]
      .map(
        (repository) =>
          `touch ${repository}/.git/hooks/pre-commit 2>/dev/null || echo ${repository}`,
      )
      .join("; ");
    expect(await run(`${plant}; { printf evil > lib/.git; } 2>/dev/null || echo lib`)).toEqual(
      ok("sub\na/b/c/d\nlinked\nlib\n"),
    );
    expect(existsSync(join(ws, "a/b/c/d/e/.git/hooks/pre-commit"))).toBe(true);
    expect(existsSync(join(ws, "node_modules/pkg/.git/hooks/pre-commit"))).toBe(true);
    expect(await readFile(join(ws, "lib", ".git"), "utf8")).toBe("gitdir: ../.git/modules/lib\n");
  });

  it("keeps git metadata not named .git read-only: a bare repository, a separate git dir, a worktree's", async () => {
    // Made by git itself, so the layout is the one git recognises.
    execFileSync("git", ["init", "-q", "--bare", join(ws, "server.git")]);
    await mkdir(join(ws, "app"));
    execFileSync("git", [
      "init",
      "-q",
      "--separate-git-dir",
      join(ws, "app-gitdir"),
      join(ws, "app"),
    ]);
    expect(await readFile(join(ws, "app", ".git"), "utf8")).toBe(
      `gitdir: ${join(ws, "app-gitdir")}\n`,
    );
    // A gitdir: file deeper than the scan, pointing at a directory that is not (yet) laid out.
    await mkdir(join(ws, "x", "y", "z", "w", "v"), { recursive: true });
    await mkdir(join(ws, "hidden-gitdir"));
    await writeFile(join(ws, "x", "y", "z", "w", ".git"), "gitdir: ../../../../hidden-gitdir\n");
    const plant = ["server.git", "app-gitdir", "hidden-gitdir"]
      .map((directory) => `touch ${directory}/config-planted 2>/dev/null || echo ${directory}`)
      .join("; ");
    expect(await run(`${plant}; touch app/ok && echo app-writable`)).toEqual(
      ok("server.git\napp-gitdir\nhidden-gitdir\napp-writable\n"),
    );
    expect(existsSync(join(ws, "server.git", "config-planted"))).toBe(false);
    expect(existsSync(join(ws, "app-gitdir", "config-planted"))).toBe(false);
  });

  it("refuses a workspace that is itself laid out as a git directory", () => {
    execFileSync("git", ["init", "-q", "--bare", ws]);
    expect(() => runner().argsFor("true", ws)).toThrow(SandboxContentError);
    expect(() => runner().argsFor("true", ws)).toThrow(/is laid out as a git directory/);
  });

  it("takes an empty HEAD beside objects/ and refs/ for no git directory", async () => {
    await mkdir(join(ws, "objects"));
    await mkdir(join(ws, "refs"));
    await writeFile(join(ws, "HEAD"), "");
    expect(await runner().run("echo ran", ws, LIMITS)).toEqual(ok("ran\n"));
    await writeFile(join(ws, "HEAD"), "ref: refs/heads/main\n");
    expect(() => runner().argsFor("true", ws)).toThrow(/is laid out as a git directory/);
  });

  /** A bash runner for `ws` with an empty environment, plus `extra`. */
  function bareRunner(extra: Partial<BubblewrapRunnerOptions>): BubblewrapRunner {
    return new BubblewrapRunner({
      bwrapPath,
      shell: { executable: bash, kind: "bash" },
      workspace: ws,
      home: homedir(),
      network: false,
      environment: {},
      ...extra,
    });
  }

  it("checkWorkspace reads nothing the workspace holds: a bare repository there passes, each command is refused", () => {
    execFileSync("git", ["init", "-q", "--bare", ws]);
    expect(() => {
      runner().checkWorkspace();
    }).not.toThrow();
    expect(() => runner().argsFor("true", ws)).toThrow(SandboxContentError);
  });

  it("checkWorkspace looks up no /proc mask: they wait for the probe and the commands", () => {
    const asked: string[] = [];
    const host: HostPaths = {
      kindOf: (path) => {
        asked.push(path);
        return liveHostPaths.kindOf(path);
      },
      thermalThrottleDirectories: () => {
        asked.push("thermal");
        return liveHostPaths.thermalThrottleDirectories();
      },
    };
    const planned = bareRunner({
      hardening: sandboxHardening(process.arch, host, { network: false }),
    });
    planned.checkWorkspace();
    expect(asked).toEqual([]);
    planned.argsFor("true", ws);
    expect(asked).toContain("/proc/kcore");
  });

  it("checkWorkspace refuses what every command would be refused for, in the same words", () => {
    const thrownBy = (action: () => unknown): unknown => {
      try {
        action();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const cases: { make: () => BubblewrapRunner; cwd: string; words: RegExp }[] = [
      {
        make: () => runner({ workspace: homedir() }),
        cwd: homedir(),
        words: /it is the home directory/,
      },
      {
        make: () => bareRunner({ hiddenPaths: [base] }),
        cwd: ws,
        words: /cannot hide .*: it overlaps the workspace/,
      },
    ];
    for (const { make, cwd, words } of cases) {
      const fromCheck = thrownBy(() => {
        make().checkWorkspace();
      });
      const fromCommand = thrownBy(() => make().argsFor("true", cwd));
      expect(fromCheck).toBeInstanceOf(SandboxSetupError);
      expect(String(fromCheck)).toMatch(words);
      expect(String(fromCheck)).toBe(String(fromCommand));
    }
  });

  it("binds the harness's own files inside the workspace read-only; a command cannot swap them", async () => {
    const log = join(ws, "audit.jsonl");
    await writeFile(log, "line 1\n");
    const recording = join(base, "outside.jsonl");
    await writeFile(recording, "");
    const guarded = guardedRunner([log, recording, join(ws, "not-created-yet.jsonl")]);
    const args = guarded.argsFor("true", ws);
    expect(
      args
        .filter((_, index) => args[index - 1] === "--ro-bind")
        .filter(notProc)
        .filter(notCredentialMask),
    ).toEqual(["/", log, ...heldAtTop(ws)]);
    const attack = [
      "{ echo evil >> audit.jsonl; } 2>/dev/null || echo append-refused",
      "rm -f audit.jsonl 2>/dev/null; ln -s /etc/passwd audit.jsonl 2>/dev/null || echo swap-refused",
      "mv audit.jsonl moved 2>/dev/null || echo move-refused",
    ].join("; ");
    expect(await guarded.run(attack, ws, LIMITS)).toEqual(
      ok("append-refused\nswap-refused\nmove-refused\n"),
    );
    expect(await readFile(log, "utf8")).toBe("line 1\n");
  });

  it("binds the harness's .agent directory read-only: saved outputs cannot be changed or redirected", async () => {
    const store = WorkspaceOutputStore.open(ws);
    const saved = store.spillFor("c").open();
    saved?.write(Buffer.from("saved\n"));
    saved?.close();
    const guarded = guardedRunner([store.realPath]);
    const attack = [
      "{ echo evil >> .agent/outputs/c.log; } 2>/dev/null || echo append-refused",
      "ln -s /etc .agent/outputs/next.log 2>/dev/null || echo link-refused",
      "mkfifo .agent/outputs/c-2.log 2>/dev/null || echo fifo-refused",
      "mv .agent moved 2>/dev/null || echo move-refused",
      "rm -rf .agent 2>/dev/null; test -d .agent/outputs && echo still-there",
    ].join("; ");
    expect(await guarded.run(attack, ws, LIMITS)).toEqual(
      ok("append-refused\nlink-refused\nfifo-refused\nmove-refused\nstill-there\n"),
    );
    expect(await readFile(join(ws, ".agent/outputs/c.log"), "utf8")).toBe("saved\n");
    expect(store.spillFor("c").open()?.path).toBe(".agent/outputs/c-2.log");
  });

  it("binds a harness-owned directory (the agent's own dist/) read-only, with all it holds", async () => {
    const dist = join(ws, "agent", "dist");
    await mkdir(dist, { recursive: true });
    await writeFile(join(dist, "agent-bundle.cjs"), "bundle\n");
    const harnessFiles = [dist, join(ws, "agent", "node_modules")];
    const guarded = guardedRunner(harnessFiles);
    const args = guarded.argsFor("true", ws);
    expect(
      args
        .filter((_, index) => args[index - 1] === "--ro-bind")
        .filter(notProc)
        .filter(notCredentialMask),
    ).toEqual(["/", dist, ...heldAtTop(ws)]);
    const attack = [
      "{ echo evil >> agent/dist/agent-bundle.cjs; } 2>/dev/null || echo append-refused",
      "touch agent/dist/new.cjs 2>/dev/null || echo create-refused",
      "mv agent/dist agent/old 2>/dev/null || echo move-refused",
      "touch agent/other && echo sibling-written",
    ].join("; ");
    expect(await guarded.run(attack, ws, LIMITS)).toEqual(
      ok("append-refused\ncreate-refused\nmove-refused\nsibling-written\n"),
    );
    expect(await readFile(join(dist, "agent-bundle.cjs"), "utf8")).toBe("bundle\n");
    // A workspace inside the harness's directory is read-only whole.
    const inside = guardedRunner(harnessFiles, dist);
    const insideArgs = inside.argsFor("true", dist);
    expect(
      insideArgs
        .filter((_, index) => insideArgs[index - 1] === "--ro-bind")
        .filter(notProc)
        .filter(notCredentialMask),
    ).toEqual(["/", dist, ...heldAtTop(dist)]);
    expect(await inside.run("touch x 2>/dev/null || echo refused", dist, LIMITS)).toEqual(
      ok("refused\n"),
    );
  });

  it("keeps read-only a repository that an earlier command of the same runner created", async () => {
    const shared = runner();
    // Made during that command, and said so: it could already hold a hook.
    expect(await shared.run("mkdir -p made/.git/hooks", ws, LIMITS)).toEqual(
      ok("", [
        `warning: ${join(ws, "made", ".git")} was made during this command: git runs ` +
          "the hooks and programs its config names at your next git command there, outside the " +
          "sandbox: check it before then",
      ]),
    );
    const plant = "touch made/.git/hooks/pre-commit 2>/dev/null || echo refused";
    expect(await shared.run(plant, ws, LIMITS)).toEqual(ok("refused\n"));
    expect(existsSync(join(ws, "made/.git/hooks/pre-commit"))).toBe(false);
  });

  it("never follows a symlinked directory while looking for nested repositories", async () => {
    await mkdir(join(base, "ws-evil", "repo", ".git"), { recursive: true });
    await symlink(join(base, "ws-evil"), join(ws, "outside"));
    await mkdir(join(ws, "inside", ".git"), { recursive: true });
    await symlink("inside", join(ws, "alias"));
    const args = runner().argsFor("true", ws);
    expect(
      args
        .filter((_, index) => args[index - 1] === "--ro-bind")
        .filter(notProc)
        .filter(notCredentialMask),
    ).toEqual(["/", join(ws, "inside", ".git"), ...heldAtTop(ws)]);
  });

  it(`re-binds ${String(NESTED_GIT_LIMIT)} nested .git, and refuses a command when there are more`, async () => {
    const names = Array.from(
      { length: NESTED_GIT_LIMIT },
      (_, index) => `r${String(index).padStart(3, "0")}`,
    );
    for (const name of names) await mkdir(join(ws, name, ".git"), { recursive: true });
    const args = runner().argsFor("true", ws);
    const bound = args
      .filter((_, index) => args[index - 1] === "--ro-bind")
      .filter(notProc)
      .filter(notCredentialMask);
    expect(bound).toEqual(["/", ...names.map((name) => join(ws, name, ".git")), ...heldAtTop(ws)]);

    // One more (a decoy a command could make) must not leave a real repository writable.
    await mkdir(join(ws, "zzz", ".git"), { recursive: true });
    expect(() => runner().argsFor("true", ws)).toThrow(
      new SandboxContentError(
        scanLimitMessage(`more than ${String(NESTED_GIT_LIMIT)} nested git directories`),
      ),
    );
  });

  it("refuses a command, which never runs, when decoy directories use the scan budget up", async () => {
    // Decoys named before the real repository, as a hostile command would make them.
    await mkdir(join(ws, "vendor", "lib", ".git", "hooks"), { recursive: true });
    for (let index = 0; index < NESTED_GIT_DIRECTORY_BUDGET; index += 1) {
      await mkdir(join(ws, "a", String(index)), { recursive: true });
    }
    const marker = join(ws, "vendor", "lib", ".git", "hooks", "post-checkout");
    await expect(runner().run(`echo planted > ${marker}`, ws, LIMITS)).rejects.toThrow(
      new SandboxContentError(
        scanLimitMessage(`more than ${String(NESTED_GIT_DIRECTORY_BUDGET)} directories`),
      ),
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses umount and a read-write remount of / even to root", async () => {
    const target = `agent-sandbox-remount-${String(process.pid)}`;
    const result = await run(
      [
        "umount / 2>/dev/null; echo umount=$?",
        "mount -o remount,rw / 2>/dev/null; echo remount=$?",
        // With capabilities left, this one succeeds and the touch below lands in the host's /etc.
        "mount -o remount,rw,bind / 2>/dev/null; echo bind-remount=$?",
        `touch /etc/${target} 2>/dev/null; echo touch=$?`,
      ].join("\n"),
    );
    const escaped = existsSync(`/etc/${target}`);
    await rm(`/etc/${target}`, { force: true });
    expect(result).toEqual(ok("umount=32\nremount=32\nbind-remount=32\ntouch=1\n"));
    expect(escaped).toBe(false);
  });

  describe("a TCP listener on the host's 127.0.0.1", () => {
    let server: Server;
    let port: number;
    let connections: number;
    let firstConnection: Promise<void>;

    beforeEach(async () => {
      connections = 0;
      let connected: () => void = () => undefined;
      firstConnection = new Promise((resolve) => {
        connected = resolve;
      });
      server = createServer((socket) => {
        connections += 1;
        connected();
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const address = server.address();
      if (address === null || typeof address === "string") throw new Error("no port");
      port = address.port;
    });

    afterEach(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    const attempt = (): string =>
      `if (exec 3<>/dev/tcp/127.0.0.1/${String(port)}) 2>/dev/null; then echo connected; else echo refused; fi`;

    it("is unreachable with network off", async () => {
      expect(await run(attempt())).toEqual(ok("refused\n"));
      expect(connections).toBe(0);
    });

    it("is reachable with network on", async () => {
      expect(await run(attempt(), { network: true })).toEqual(ok("connected\n"));
      await firstConnection;
      expect(connections).toBe(1);
    });
  });

  describe("a UNIX socket a host process listens on outside /tmp and /run", () => {
    // Read-only mounts do not stop connect(): it needs write permission on the socket inode, which
    // EROFS only takes from files, directories and links. Docker Desktop's ~/.docker/desktop/
    // docker.sock, LXD's /var/snap/lxd/common/lxd/unix.socket, gpg-agent's ~/.gnupg/S.gpg-agent
    // all live outside /tmp and /run; here the socket lies in the workspace, where a host dev
    // server might put one.
    let server: Server;
    let socketPath: string;
    let connections: number;

    beforeEach(async () => {
      connections = 0;
      socketPath = join(ws, "host.sock");
      server = createServer((socket) => {
        connections += 1;
        socket.end("host service\n");
      });
      await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    });

    afterEach(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    const attempt = (path: string): string =>
      `node -e 'const c = require("net").connect(process.argv[1]); ` +
      `c.on("data", (d) => process.stdout.write(d)); c.on("error", (e) => console.log(e.code))' '${path}'`;

    it("is unreachable with network off, and a stream socketpair still works", async () => {
      const result = await run(
        `${attempt(socketPath)}; node -e 'require("child_process").execFileSync("true"); console.log("spawned")'`,
      );
      expect(result).toEqual(ok("EPERM\nspawned\n"));
      expect(connections).toBe(0);
    });

    it("is reachable with network on", async () => {
      expect(await run(attempt(socketPath), { network: true })).toEqual(ok("host service\n"));
      expect(connections).toBe(1);
    });
  });

  const runWritable = isWritable("/run");
  it.skipIf(!runWritable)(
    runWritable
      ? "hides a UNIX socket under the host's /run"
      : "hides a UNIX socket under the host's /run (skipped: /run is not writable by this user, so no host socket can be made there)",
    async () => {
      const directory = await mkdtemp("/run/agent-sandbox-test-");
      const socketPath = join(directory, "host.sock");
      const server = createServer((socket) => socket.destroy());
      try {
        await new Promise<void>((resolve) => server.listen(socketPath, resolve));
        expect(existsSync(socketPath)).toBe(true);
        const check = `if [ -e '${socketPath}' ]; then echo visible; else echo hidden; fi; ls /run | wc -l`;
        expect(await run(check)).toEqual(ok("hidden\n0\n"));
        expect(await run(check, { network: true })).toEqual(ok("hidden\n0\n"));
      } finally {
        await new Promise((resolve) => server.close(resolve));
        await rm(directory, { recursive: true, force: true });
      }
    },
  );

  it("kills a grandchild that left with setsid when the command times out", async () => {
    const [prefix, suffix] = [
      "agent-sandbox-orphan",
      `${String(process.pid)}-${String(Date.now())}`,
    ];
    const marker = `${prefix}-${suffix}`;
    // The marker is only assembled inside, so only the grandchild's command line holds it.
    const command = `setsid sh -c "sleep 300; : $(printf '%s-%s' ${prefix} ${suffix})" & sleep 300`;
    const pending = runner().run(command, ws, { timeoutMs: 3_000, maxOutputBytes: 1024 });
    // Exactly one process holds the marker: the grandchild's `sh`. While it forks its `sleep`, the
    // child holds the same command line for a moment (under load a poll saw two); a marker in
    // bwrap's own argv would never leave one, and the test would time out.
    const seen = await pollFor(
      () => pidsWithMarker(marker),
      (pids) => pids.length === 1,
    );
    expect(await pending).toEqual({ exitCode: null, output: "", truncated: false, timedOut: true });
    const after = await pollFor(
      () => pidsWithMarker(marker),
      (pids) => pids.length === 0,
    );
    expect(after).toEqual([]);
    for (const pid of seen) expect(isLiveProcess(pid)).toBe(false);
  }, 20_000);

  it("keeps the head and the tail of output on character boundaries and says it cut", async () => {
    const result = await runner().run("printf 'ab€cd'; sleep 0.2; printf 'more' >&2", ws, {
      timeoutMs: 20_000,
      maxOutputBytes: 12,
    });
    expect(result).toEqual({
      exitCode: 0,
      output: "ab€",
      truncated: true,
      timedOut: false,
      omitted: { bytes: 10, lines: 0, tail: " more", totalBytes: 20 },
    });
  });

  it("stops on abort: no exit code, not a timeout", async () => {
    const controller = new AbortController();
    const pending = runner().run("printf started; touch ready; sleep 300", ws, {
      ...LIMITS,
      signal: controller.signal,
    });
    await pollFor(
      () => existsSync(join(ws, "ready")),
      (ready) => ready,
    );
    controller.abort();
    expect(await pending).toEqual({
      exitCode: null,
      output: "started",
      truncated: false,
      timedOut: false,
    });
  });

  it("never lets the API key or a token reach the command", async () => {
    const result = await run(
      'echo "key=${OPENAI_API_KEY-unset} token=${GITHUB_TOKEN-unset}"; env | grep -c sk-test || true',
    );
    expect(result).toEqual(ok("key=unset token=unset\n0\n"));
  });

  it("reports a sandbox that could not start the command as a typed error, not exit 1", async () => {
    // A shell under /tmp exists on the host but not inside, where /tmp is a private tmpfs.
    const hidden = join(base, "bin");
    await mkdir(hidden);
    await symlink(bash, join(hidden, "bash"));
    const error = await runError(run("touch should-not-exist", { shell: join(hidden, "bash") }));
    expect(error).toBeInstanceOf(SandboxSetupError);
    expect(error).toBeInstanceOf(CommandStartError);
    expect((error as Error).message).toBe(
      `The sandbox (bwrap) could not start the command (exit code 1): bwrap: execvp ${join(hidden, "bash")}: No such file or directory`,
    );
    expect(existsSync(join(ws, "should-not-exist"))).toBe(false);
  });

  it("reports a bwrap that cannot be started as a sandbox setup error", async () => {
    const missing = join(base, "no-bwrap");
    const broken = new BubblewrapRunner({
      bwrapPath: missing,
      shell: { executable: bash, kind: "bash" },
      workspace: ws,
      home: homedir(),
      network: false,
      environment: {},
    });
    const error = await runError(broken.run("touch should-not-exist", ws, LIMITS));
    expect(error).toBeInstanceOf(SandboxSetupError);
    expect((error as Error).message).toBe(
      `Could not start the sandbox ${missing}: ENOENT (no such file)`,
    );
    expect(existsSync(join(ws, "should-not-exist"))).toBe(false);
  });

  it("reports a workspace that does not exist as a typed error", async () => {
    const missing = join(base, "gone");
    const error = await runError(runner({ workspace: missing }).run("true", missing, LIMITS));
    expect(error).toBeInstanceOf(SandboxSetupError);
    expect((error as Error).message).toBe(
      `Workspace does not exist or is not a directory: ${missing}`,
    );
  });

  it("works through a symlinked workspace path and binds its real path", async () => {
    const link = join(base, "link");
    await symlink(ws, link);
    const linked = runner({ workspace: link });
    expect(linked.label()).toBe(`sandbox: bwrap (network off, writable: ${ws})`);
    expect(await linked.run("pwd; printf x > via-link.txt", link, LIMITS)).toEqual(ok(`${ws}\n`));
    expect(await readFile(join(ws, "via-link.txt"), "utf8")).toBe("x");
  });

  it("passes its own probe with network off and on", async () => {
    const environment = buildCommandEnvironment(process.env, { passEnv: [], platform: "linux" });
    const shell = { executable: bash, kind: "bash" as const };
    expect(await probeSandbox({ bwrapPath, shell, network: false, environment })).toEqual({
      ok: true,
    });
    expect(await probeSandbox({ bwrapPath, shell, network: true, environment })).toEqual({
      ok: true,
    });
  });

  it("stopped by its signal once under way: not passed, and its temp workspace removed", async () => {
    const environment = buildCommandEnvironment(process.env, { passEnv: [], platform: "linux" });
    const shell = { executable: bash, kind: "bash" as const };
    const tempRoot = join(base, "probe-temp");
    await mkdir(tempRoot);
    const stop = new AbortController();
    // Stopped once its temp workspace exists, i.e. while it is under way.
    const watcher = watch(tempRoot, () => {
      stop.abort();
    });
    try {
      const result = await probeSandbox({
        bwrapPath,
        shell,
        network: false,
        environment,
        tempRoot,
        signal: stop.signal,
      });
      expect(stop.signal.aborted).toBe(true);
      expect(result.ok).toBe(false);
    } finally {
      watcher.close();
    }
    expect(readdirSync(tempRoot)).toEqual([]);
  });

  it("passes its probe with plain sh, which reaches TCP through node", async () => {
    const sh = hostExecutable("sh");
    if (sh === undefined) throw new Error("sh is not on PATH");
    const environment = buildCommandEnvironment(process.env, { passEnv: [], platform: "linux" });
    const shell = { executable: sh, kind: "sh" as const };
    expect(await probeSandbox({ bwrapPath, shell, network: false, environment })).toEqual({
      ok: true,
    });
  });

  it("fails its probe when bwrap cannot start the shell, with bwrap's words", async () => {
    const environment = buildCommandEnvironment(process.env, { passEnv: [], platform: "linux" });
    const hidden = join(base, "bin");
    await mkdir(hidden);
    await symlink(bash, join(hidden, "bash"));
    const shell = { executable: join(hidden, "bash"), kind: "bash" as const };
    expect(await probeSandbox({ bwrapPath, shell, network: false, environment })).toEqual({
      ok: false,
      reason: `The sandbox (bwrap) could not start the command (exit code 1): bwrap: execvp ${join(hidden, "bash")}: No such file or directory`,
    });
  });
});

/** The read-only /proc binds (proc-masks.ts) are not the git metadata these tests look at. */
function notProc(source: string): boolean {
  return !source.startsWith("/proc/");
}

function symlinkedGit(workspace: string): string {
  return (
    `The sandbox cannot keep ${join(workspace, ".git")} read-only: it is a symbolic link, which a ` +
    "command could replace with a .git of its own; make it a directory (or a worktree's .git " +
    "file), or run with --sandbox off"
  );
}

function isWritable(directory: string): boolean {
  try {
    accessSync(directory, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Host pids whose command line holds `marker` (a zombie's command line is empty: it is dead). */
function pidsWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker)) pids.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

/** True while the pid exists and is not a zombie. */
function isLiveProcess(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Polls until `done` holds (bounded by the test timeout), returning the last value seen. */
async function pollFor<T>(read: () => T, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function scanLimitMessage(what: string): string {
  return (
    `The sandbox refuses to run this command: the workspace holds ${what} within ` +
    `${String(NESTED_GIT_DEPTH)} levels, too many to keep every repository's git metadata ` +
    `read-only; remove what a command created, run the agent in a smaller directory, or run ` +
    `with --sandbox off`
  );
}

/**
 * A workspace that is no repository has its top `.git` held for each command
 * (root-git-holds.ts), so a command cannot make it one.
 */
function heldAtTop(workspace: string): string[] {
  return [join(workspace, ".git")];
}

/** The person's credential files are covered by an empty file; which exist depends on this machine. */
function notCredentialMask(source: string): boolean {
  return basename(source) !== MASK_FILE_NAME;
}
