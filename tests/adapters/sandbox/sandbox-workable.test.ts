/**
 * Issue 29's acceptance, in the real sandbox: package caches that work, the network said to be off
 * and failing fast, resource limits that end a runaway command with a result naming the limit;
 * and issue 28's credentials masked. Limits are small here so each runaway ends in seconds.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { CommandResult } from "../../../src/core/ports/command-runner.js";
import { existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BubblewrapRunner } from "../../../src/adapters/sandbox/bubblewrap.js";
import { CommandCgroups, type CommandCgroupLimits } from "../../../src/adapters/cgroup/index.js";
import { NETWORK_OFF_NOTE } from "../../../src/adapters/sandbox/failure-notes.js";
import {
  DEFAULT_RESOURCE_LIMITS,
  parseResourceLimits,
  type ResourceLimits,
} from "../../../src/adapters/sandbox/resource-limits.js";
import { buildCommandEnvironment } from "../../../src/adapters/shell/command-environment.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";

const BASH = hostExecutable("bash");
const PRLIMIT = hostExecutable("prlimit");
const NPM = hostExecutable("npm");
const READY = BWRAP !== undefined && BASH !== undefined && PRLIMIT !== undefined;
const LIMITS = { timeoutMs: 60_000, maxOutputBytes: 64 * 1024 };
const SMALL = parseResourceLimits([
  "memory=256MiB",
  "processes=64",
  "file-size=10MiB",
  "cpu-time=2",
  "open-files=256",
]);
/** The kernel does not apply RLIMIT_NPROC to root: there a fork bomb is bounded only by time. */
const ROOT = process.getuid?.() === 0;
const RUNUSER = hostExecutable("runuser");
const CHILD = new URL("../../support/limited-command-process.ts", import.meta.url).pathname;
const PERL = hostExecutable("perl");
/** Decided once, as a run does: cgroup tests need a writable cgroup (root on CI), else skip. */
const CGROUPS = new CommandCgroups();
const CGROUP_AVAILABILITY = CGROUPS.availability();
const NO_CGROUP = CGROUP_AVAILABILITY.ok
  ? ""
  : ` (skipped: no writable cgroup here: ${CGROUP_AVAILABILITY.reason})`;

/** The runner's cgroups, remembering every directory made so a test can see each one removed. */
function recordingCgroups(made: string[]): Pick<CommandCgroups, "create"> {
  return {
    create(limits: CommandCgroupLimits) {
      const cgroup = CGROUPS.create(limits);
      made.push(...(cgroup?.directories ?? []));
      return cgroup;
    },
  };
}

/** limited-command-process.ts, as `user` when given (runuser, from root), and its result. */
function runAs(user: string | undefined, args: readonly string[]): CommandResult {
  const node = [process.execPath, "--import", "tsx", CHILD, ...args];
  const argv = user === undefined ? node : [RUNUSER ?? "runuser", "-u", user, "--", ...node];
  const [program = "", ...rest] = argv;
  const stdout = execFileSync(program, rest, {
    cwd: fileURLToPath(new URL("../../..", import.meta.url)),
    encoding: "utf8",
    timeout: 60_000,
  });
  return JSON.parse(stdout) as CommandResult;
}

const SUITE =
  "the sandbox people can work in (real bubblewrap)" +
  (!READY ? " (skipped: needs Linux with bwrap, bash and prlimit on PATH)" : "");

describe.skipIf(!READY)(SUITE, () => {
  let base: string;
  let ws: string;
  let home: string;
  let cache: string;

  beforeEach(async () => {
    // Not under /tmp: the sandbox's /tmp is its own, so a home there would not be seen at all.
    base = await mkdtemp(
      join(await realpath(existsSync("/var/tmp") ? "/var/tmp" : tmpdir()), "sandbox-work-"),
    );
    ws = join(base, "ws");
    home = join(base, "home");
    cache = join(base, "cache");
    await Promise.all([mkdir(ws), mkdir(home), mkdir(cache)]);
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  function runner(
    options: {
      network?: boolean;
      limits?: ResourceLimits;
      unmasked?: string[];
      cgroups?: Pick<CommandCgroups, "create">;
    } = {},
  ): BubblewrapRunner {
    return new BubblewrapRunner({
      bwrapPath: BWRAP ?? "",
      shell: { executable: BASH ?? "", kind: "bash" },
      workspace: ws,
      home,
      network: options.network ?? false,
      environment: buildCommandEnvironment(
        { PATH: process.env.PATH, HOME: home, LANG: "C.UTF-8" },
        { passEnv: [], platform: "linux" },
      ),
      cacheDirectory: cache,
      unmasked: options.unmasked ?? [],
      limits: { prlimitPath: PRLIMIT ?? "", values: options.limits ?? DEFAULT_RESOURCE_LIMITS },
      ...(options.cgroups === undefined ? {} : { cgroups: options.cgroups }),
    });
  }

  it.skipIf(NPM === undefined)(
    "network off: `npm view left-pad` fails in under 10 s and the result says the network is off" +
      (NPM === undefined ? " (skipped: no npm on PATH)" : ""),
    async () => {
      const started = performance.now();
      const result = await runner().run("npm view left-pad", ws, LIMITS);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(result.exitCode).not.toBe(0);
      expect(result.output).toContain("ENOTCACHED");
      expect(result.notes?.at(-1)).toBe(NETWORK_OFF_NOTE);
    },
  );

  it.skipIf(NPM === undefined)(
    "with the network, `npm install` from a loopback registry writes only the workspace and the cache" +
      (NPM === undefined ? " (skipped: no npm on PATH)" : ""),
    async () => {
      const registry = await tinyRegistry(base);
      try {
        await writeFile(
          join(ws, "package.json"),
          JSON.stringify({ name: "app", version: "1.0.0", dependencies: { "tiny-pkg": "1.0.0" } }),
        );
        const result = await runner({ network: true }).run(
          `npm install --registry ${registry.url} --no-audit --no-fund --no-update-notifier`,
          ws,
          LIMITS,
        );
        expect(result.exitCode, result.output).toBe(0);
        expect(await readFile(join(ws, "node_modules", "tiny-pkg", "index.js"), "utf8")).toBe(
          "module.exports = 42;\n",
        );
        expect(await readdir(cache)).toContain("npm");
        expect(await readdir(join(cache, "npm"))).toContain("_cacache");
        // The home directory (read-only) got nothing: no ~/.npm, no log, no config.
        expect(await readdir(home)).toEqual([]);
      } finally {
        await registry.close();
      }
    },
  );

  it("node and npm start under the default limits", async () => {
    const result = await runner().run("node -e 'console.log(1)' && npm --version", ws, LIMITS);
    expect(result.exitCode, result.output).toBe(0);
  });

  it("an allocation without bound ends with a result naming the memory limit", async () => {
    const result = await runner({ limits: SMALL }).run(
      "node -e 'const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))'",
      ws,
      LIMITS,
    );
    expect(result.exitCode).not.toBe(0);
    expect(result.timedOut).toBe(false);
    // No cgroup here: only the program's own words say why, so the note says "may have".
    expect(result.notes?.at(-1)).toBe(
      "may have hit the memory limit 256 MiB (going by the output's words)",
    );
  });

  it("a 10 GiB write ends at the file size limit, and the file stays that small", async () => {
    const result = await runner({ limits: SMALL }).run("head -c 10G /dev/zero > big", ws, LIMITS);
    expect(result.exitCode).toBe(153);
    expect(result.output).toContain("File size limit exceeded");
    expect(result.notes?.at(-1)).toBe("stopped: file size limit 10 MiB reached");
    expect((await stat(join(ws, "big"))).size).toBe(10 * 1024 * 1024);
  });

  it("a busy loop ends at the CPU time limit", async () => {
    const result = await runner({ limits: SMALL }).run("while :; do :; done", ws, LIMITS);
    expect(result.exitCode).toBe(152);
    expect({ output: result.output, notes: result.notes }).toEqual({
      output: "",
      notes: ["stopped: CPU time limit 2 s reached"],
    });
  });

  it.skipIf(ROOT && RUNUSER === undefined)(
    "a fork bomb ends with a result naming the process limit, within seconds" +
      (ROOT && RUNUSER === undefined
        ? " (skipped: as root it needs runuser, to run as nobody)"
        : ""),
    async () => {
      // The kernel never applies RLIMIT_NPROC to root: as root, run the sandbox as `nobody`.
      const owner = ROOT ? "nobody" : undefined;
      const workspace = await mkdtemp(join(base, "bomb-"));
      if (owner !== undefined) execFileSync("chown", [owner, workspace, base]);
      const started = performance.now();
      const result = runAs(owner, [
        workspace,
        "bomb() { bomb | bomb & }; bomb; sleep 5; exit 1",
        "processes=64",
      ]);
      expect(performance.now() - started).toBeLessThan(30_000);
      expect(result.timedOut).toBe(false);
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain("fork: retry: Resource temporarily unavailable");
      // The rlimit alone leaves no count of refused forks: only the shell's words say why.
      expect(result.notes?.at(-1)).toBe(
        "may have hit the process limit 64 (going by the output's words)",
      );
    },
  );

  it("without a cgroup to be had, the command runs with the rlimits alone", async () => {
    const none = new CommandCgroups({ mountinfo: "", selfCgroup: "" });
    expect(none.availability()).toEqual({
      ok: false,
      reason: "no pids or memory cgroup controller is mounted",
    });
    const result = await runner({
      limits: parseResourceLimits(["processes=64"]),
      cgroups: none,
    }).run("ulimit -u; cat /proc/self/cgroup | grep -c agent-harness", ws, LIMITS);
    expect(result.output).toBe("64\n0\n");
  });

  describe.skipIf(!CGROUP_AVAILABILITY.ok)(`with a cgroup per command${NO_CGROUP}`, () => {
    it.skipIf(PERL === undefined)(
      "a fork bomb, as whoever runs the tests (root on CI), ends in seconds at the process limit; the harness stays responsive" +
        (PERL === undefined ? " (skipped: no perl on PATH)" : ""),
      async () => {
        const made: string[] = [];
        const limited = runner({
          limits: parseResourceLimits(["processes=64"]),
          cgroups: recordingCgroups(made),
        });
        const started = performance.now();
        // `exec perl` waits without forking: a shell's `sleep` would itself retry its fork. The
        // command's own shell forks once, before any bomb exists (`bomb &`): `bomb;` forked both
        // ends of the pipeline itself, and when the first end's children reached the limit before
        // the second fork, bash retried that fork for up to 15 s (1+2+4+8) before going on.
        const bomb = limited.run(
          "bomb() { bomb | bomb & }; bomb & exec perl -e 'sleep 3; exit 1'",
          ws,
          LIMITS,
        );
        // While the bomb runs, another command still runs and answers.
        const alive = await limited.run("echo alive", ws, LIMITS);
        expect(alive).toMatchObject({ exitCode: 0, output: "alive\n" });
        const result = await bomb;
        expect(performance.now() - started).toBeLessThan(15_000);
        expect(result.timedOut).toBe(false);
        expect(result.exitCode).toBe(1);
        expect(result.notes?.at(-1)).toBe("stopped: process limit 64 reached");
        expect(made.length).toBeGreaterThan(0);
        for (const directory of made) expect(existsSync(directory)).toBe(false);
      },
    );

    it("processes that together allocate past the memory limit are stopped, the limit named", async () => {
      const made: string[] = [];
      // Each stays under the per-process data limit (256 MiB); together they pass the total.
      const hog = "node -e 'const b = Buffer.alloc(120 << 20, 1); setInterval(() => b, 1000)'";
      const result = await runner({
        limits: parseResourceLimits(["memory=256MiB"]),
        cgroups: recordingCgroups(made),
      }).run(`for i in 1 2 3; do ${hog} & done; wait -n; exit $?`, ws, LIMITS);
      expect(result.timedOut).toBe(false);
      expect(result.exitCode).toBe(137);
      expect(result.notes?.at(-1)).toBe("stopped: memory limit 256 MiB reached");
      expect(made.length).toBeGreaterThan(0);
      for (const directory of made) expect(existsSync(directory)).toBe(false);
    });

    it("the command runs inside its cgroup and cannot move itself out", async () => {
      const made: string[] = [];
      const result = await runner({ cgroups: recordingCgroups(made) }).run(
        "for procs in $(find /sys/fs/cgroup -maxdepth 2 -name cgroup.procs); do echo $$ > $procs && echo moved; done; cat /proc/self/cgroup",
        ws,
        LIMITS,
      );
      expect(result.output).not.toContain("moved");
      const names = made.map((directory) =>
        directory.slice(directory.lastIndexOf("/agent-harness/")),
      );
      for (const name of names) expect(result.output).toContain(`${name}\n`);
    });

    it("a command that times out is killed and its cgroup removed", async () => {
      const made: string[] = [];
      const result = await runner({ cgroups: recordingCgroups(made) }).run(
        "sleep 600 & sleep 600",
        ws,
        { ...LIMITS, timeoutMs: 300 },
      );
      expect(result).toMatchObject({ exitCode: null, timedOut: true });
      expect(made.length).toBeGreaterThan(0);
      for (const directory of made) expect(existsSync(directory)).toBe(false);
    });
  });

  it("masks credentials: an empty read-only directory, a file that reads as empty; un-masks on request", async () => {
    await mkdir(join(home, ".ssh"));
    await writeFile(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY");
    await writeFile(join(home, ".netrc"), "machine example.com password hunter2");
    await writeFile(join(home, ".npmrc"), "//registry.example/:_authToken=npm_secret");
    const masked = await runner().run(
      "ls -A ~/.ssh; cat ~/.netrc ~/.npmrc; touch ~/.ssh/planted",
      ws,
      LIMITS,
    );
    expect(masked.output).toBe(
      `[stderr] touch: cannot touch '${home}/.ssh/planted': Read-only file system\n`,
    );
    const unmasked = await runner({ unmasked: [".npmrc"] }).run(
      "cat ~/.npmrc ~/.netrc",
      ws,
      LIMITS,
    );
    expect(unmasked).toMatchObject({
      exitCode: 0,
      output: "//registry.example/:_authToken=npm_secret",
    });
  });

  it("points the package tools at the sandbox cache, and offline with the network off", async () => {
    const show = 'echo "$npm_config_cache $PIP_CACHE_DIR $GOPROXY $npm_config_offline"';
    expect((await runner().run(show, ws, LIMITS)).output).toBe(
      "/tmp/.agent-cache/npm /tmp/.agent-cache/pip off true\n",
    );
    expect((await runner({ network: true }).run(show, ws, LIMITS)).output).toBe(
      // The two unset values leave only blanks at the line's end, which the output drops.
      "/tmp/.agent-cache/npm /tmp/.agent-cache/pip\n",
    );
  });

  it("gives a writable config home for one command and turns update notifiers off, network or not", async () => {
    const show = 'echo "$XDG_CONFIG_HOME $NO_UPDATE_NOTIFIER $npm_config_update_notifier"';
    for (const network of [false, true]) {
      expect((await runner({ network }).run(show, ws, LIMITS)).output).toBe(
        "/tmp/.config 1 false\n",
      );
    }
    // A git alias planted there by one command is not there for the next.
    const plant =
      'mkdir -p "$XDG_CONFIG_HOME/git" && printf "[alias]\\n\\tplanted = !echo RAN\\n" > "$XDG_CONFIG_HOME/git/config" && git config --global alias.planted';
    expect((await runner({ network: false }).run(plant, ws, LIMITS)).output).toBe("!echo RAN\n");
    const read = "git config --global alias.planted || echo none";
    expect((await runner({ network: false }).run(read, ws, LIMITS)).output).toBe("none\n");
  });
});

/** A registry stand-in on 127.0.0.1 serving one package, `tiny-pkg@1.0.0`, built here. */
async function tinyRegistry(base: string): Promise<{ url: string; close: () => Promise<void> }> {
  const source = join(base, "tiny-src");
  await mkdir(join(source, "package"), { recursive: true });
  await writeFile(
    join(source, "package", "package.json"),
    JSON.stringify({ name: "tiny-pkg", version: "1.0.0", main: "index.js" }),
  );
  await writeFile(join(source, "package", "index.js"), "module.exports = 42;\n");
  const tarball = join(base, "tiny-pkg-1.0.0.tgz");
  execFileSync("tar", ["-czf", tarball, "-C", source, "package"]);
  const bytes = await readFile(tarball);
  const shasum = createHash("sha1").update(bytes).digest("hex");
  const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
  const server: Server = createServer((request, response) => {
    const port = (server.address() as AddressInfo).port;
    if (request.url === "/tiny-pkg") {
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          name: "tiny-pkg",
          "dist-tags": { latest: "1.0.0" },
          versions: {
            "1.0.0": {
              name: "tiny-pkg",
              version: "1.0.0",
              dist: {
                tarball: `http://127.0.0.1:${String(port)}/tiny-pkg/-/tiny-pkg-1.0.0.tgz`,
                shasum,
                integrity,
              },
            },
          },
        }),
      );
    } else if (request.url === "/tiny-pkg/-/tiny-pkg-1.0.0.tgz") {
      response.end(bytes);
    } else {
      response.statusCode = 404;
      response.end("{}");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${String(port)}/`,
    close: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      ),
  };
}
