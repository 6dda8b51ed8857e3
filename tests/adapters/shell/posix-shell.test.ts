import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PosixShellRunner, posixShellArgs } from "../../../src/adapters/shell/posix-shell.js";

describe("posixShellArgs", () => {
  it("runs bash without startup files", () => {
    expect(posixShellArgs("bash", "ls -la")).toEqual(["--noprofile", "--norc", "-c", "ls -la"]);
  });

  it("runs sh with -c only", () => {
    expect(posixShellArgs("sh", "ls -la")).toEqual(["-c", "ls -la"]);
  });
});

describe.skipIf(process.platform === "win32")(
  "PosixShellRunner (POSIX only: runs /bin/bash and /bin/sh)",
  () => {
    let workspace: string;

    beforeEach(async () => {
      workspace = await mkdtemp(join(await realpath(tmpdir()), "posix-shell-"));
    });

    afterEach(async () => {
      await rm(workspace, { recursive: true, force: true });
    });

    const limits = { timeoutMs: 20_000, maxOutputBytes: 1024 };

    it.each([
      ["bash", "/bin/bash"],
      ["sh", "/bin/sh"],
    ] as const)(
      "%s runs the command in the given cwd with the given environment",
      async (kind, executable) => {
        const runner = new PosixShellRunner({
          executable,
          kind,
          environment: { PATH: "/usr/bin:/bin", GREETING: "hi" },
          killTree: { kind: "process-group" },
        });
        expect(runner.shellName).toBe(kind);
        const result = await runner.run(
          'echo "$GREETING from $(pwd)"; echo oops >&2; exit 4',
          workspace,
          limits,
        );
        expect(result).toEqual({
          exitCode: 4,
          output: `hi from ${workspace}\n[stderr] oops\n`,
          truncated: false,
          timedOut: false,
        });
      },
    );
  },
);
