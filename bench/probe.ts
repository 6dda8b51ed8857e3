/**
 * Child-process entry for `runProbe`: runs one job and prints its result as one JSON line. Modules
 * under test are imported inside each job, so a cold-path child loads only what it measures.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  benchShellRunner,
  naiveLineWindow,
  withPeakRss,
  type ProbeJob,
  type ProbeResult,
} from "./probe-jobs.js";

async function runJob(job: ProbeJob): Promise<ProbeResult> {
  switch (job.kind) {
    case "first-path-check":
      return firstPathCheck(job);
    case "shell-capture":
      return shellCapture(job);
    case "read-file":
      return readFileJob(job);
  }
}

async function firstPathCheck(
  job: Extract<ProbeJob, { kind: "first-path-check" }>,
): Promise<ProbeResult> {
  const { NodeWorkspaceWriteBoundary } =
    await import("../src/adapters/filesystem/node-filesystem.js");
  const { safePath } = await import("../src/adapters/filesystem/safe-path.js");
  const boundary = new NodeWorkspaceWriteBoundary();
  const start = performance.now();
  const answer =
    job.check === "safePath"
      ? await safePath(job.workspace, job.path)
      : String(await boundary.isPathWithinWorkspace(job.workspace, job.path));
  return { ms: [performance.now() - start], rssGrowthMiB: 0, detail: answer };
}

async function shellCapture(
  job: Extract<ProbeJob, { kind: "shell-capture" }>,
): Promise<ProbeResult> {
  const { createShellTool } = await import("../src/features/shell-tool.js");
  const { WorkspaceOutputStore } = await import("../src/adapters/filesystem/index.js");
  const { statSync } = await import("node:fs");
  const { posixShellArgs } = await import("../src/adapters/shell/posix-shell.js");
  const runner = benchShellRunner(job.workspace);
  const command = `head -c ${job.bytes} /dev/zero`;
  return withPeakRss(async () => {
    const start = performance.now();
    if (job.mode === "harness") {
      // The whole path the model's output takes: the shell tool, head and tail kept, the whole
      // output saved to .agent/outputs.
      const outputs = WorkspaceOutputStore.open(job.workspace);
      const tool = createShellTool({
        runner,
        workspace: job.workspace,
        timeoutMs: 120_000,
        outputs,
      });
      const callId = `capture-${String(process.pid)}`;
      const result = await tool.handler({ command }, { callId });
      const saved = statSync(join(job.workspace, ".agent", "outputs", `${callId}.log`)).size;
      const message = Buffer.byteLength(result.content);
      return {
        ms: [performance.now() - start],
        detail: `message ≤ 50 KiB ${String(message <= 50 * 1024)}, saved ${saved}`,
      };
    }
    const args = posixShellArgs(runner.shellName === "bash" ? "bash" : "sh", command);
    const received = await drainPipe(runner.executable, args, job.workspace);
    return { ms: [performance.now() - start], detail: `exit 0, read ${received}` };
  });
}

/** The floor: the same shell and command, every byte read and dropped, nothing kept. */
function drainPipe(executable: string, args: readonly string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    let received = 0;
    child.stdout.on("data", (chunk: Buffer) => (received += chunk.length));
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) resolve(received);
      else reject(new Error(`drain command exited ${String(code)}`));
    });
  });
}

async function readFileJob(job: Extract<ProbeJob, { kind: "read-file" }>): Promise<ProbeResult> {
  const { NodeWorkspaceFileSystem } = await import("../src/adapters/filesystem/node-filesystem.js");
  const { ToolRegistry } = await import("../src/core/tools/tool-registry.js");
  const { createFileTools } = await import("../src/features/file-tools.js");
  const registry = new ToolRegistry(
    createFileTools({ fileSystem: new NodeWorkspaceFileSystem(job.workspace) }),
  ).snapshot();
  const args = {
    path: job.path,
    ...(job.offset === undefined ? {} : { offset: job.offset }),
    ...(job.limit === undefined ? {} : { limit: job.limit }),
  };
  const call = { id: "call_read", name: "read_file", arguments: JSON.stringify(args) };
  return withPeakRss(async () => {
    const ms: number[] = [];
    let detail = "";
    for (let index = 0; index < job.repeat; index += 1) {
      if (job.mode === "naive") {
        const naive = await naiveLineWindow(
          join(job.workspace, job.path),
          job.offset ?? 1,
          job.limit ?? Number.MAX_SAFE_INTEGER,
        );
        ms.push(naive.ms);
        detail = `${naive.lines} lines`;
        continue;
      }
      const start = performance.now();
      const prepared = registry.prepare(call);
      if (!prepared.ok) throw new Error(prepared.result.content);
      const result = await registry.invoke(prepared.call);
      ms.push(performance.now() - start);
      detail = result.isError ? `error ${result.errorCode ?? "?"}` : lastLine(result.content);
    }
    return { ms, detail };
  });
}

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1) ?? "";
}

const job = JSON.parse(process.argv[2] ?? "null") as ProbeJob;
process.stdout.write(`${JSON.stringify(await runJob(job))}\n`);
