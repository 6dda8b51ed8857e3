/**
 * Issue 32 §4: `agent runs` and `agent resume` without an id, with 10 runs in the workspace and with
 * 1,000. The journals are written by the bench (each a completed run as the CLI writes it; the
 * newest one unfinished, for `resume` to pick). `runs` is timed spawn → exit, `resume` spawn → its
 * first request at a local model server; after each resume the newest journal is made unfinished
 * again, untimed. `agent --version` is the floor. Target: 1,000 runs cost what 10 do (≤ 1.2×,
 * median of per-round ratios).
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { ChatCompletionsServer, chatTextReply } from "../tests/support/chat-completions-server.js";
import {
  BenchFailure,
  buildAgentBundle,
  roundRobin,
  runToExit,
  samplesOf,
  withTempDir,
  type Row,
  type SectionResult,
  type Variant,
} from "./measurement.js";
import { summarize } from "./stats.js";
import { runOfCalls } from "./turn-cost.js";

const ROUNDS = 7;
const AGENT = fileURLToPath(new URL("../dist/agent.cjs", import.meta.url));
const SIZES = [10, 1000] as const;
const TARGET = 1.2;
/** Issue 44 §3: twenty runs of 999 calls each, the oldest run of the workspace unfinished. */
const LONG_RUNS = 20;
const LONG_CALLS = 999;
const LONG = `${LONG_RUNS} × ${LONG_CALLS}-call runs`;
/** Issue 44 §3: resuming a LONG_CALLS-call run reaches its first request ≤ 1.5× a fresh start. */
const RESUME_TARGET = 1.5;
const FRESH = "fresh start beside a long run";
const RESUMED = "resume of a long run";

/** A workspace whose one run made LONG_CALLS calls and stopped before its final answer. */
interface Resumable {
  readonly workspace: string;
  readonly stateDir: string;
  readonly runId: string;
  readonly journal: string;
  readonly text: string;
}

interface Workspace {
  readonly size: number | string;
  readonly workspace: string;
  readonly stateDir: string;
  /** The unfinished run's journal and its first line, to make it unfinished again. */
  readonly unfinished: { readonly path: string; readonly started: string };
}

export async function measureRunListing(): Promise<SectionResult> {
  await buildAgentBundle();
  const server = await ChatCompletionsServer.start();
  try {
    return await withTempDir("runs", async (directory) => {
      const workspaces: Workspace[] = [];
      for (const size of SIZES) workspaces.push(await workspaceWithRuns(directory, size, server));
      workspaces.push(await workspaceWithLongRuns(directory, server));
      const resumable = await workspaceWithLongUnfinished(directory);
      const variants: Variant[] = [
        { name: "agent --version", run: async () => exitMs(["--version"], directory, server) },
        { name: FRESH, run: async () => freshStartMs(resumable, server) },
        { name: RESUMED, run: async () => resumeLongMs(resumable, server) },
        ...workspaces.flatMap((one) => [
          {
            name: `agent runs, ${labelOf(one)}`,
            run: async () => exitMs(["runs", ...where(one)], one.workspace, server),
          },
          {
            name: `agent resume, ${labelOf(one)}`,
            run: async () => resumeMs(one, server),
          },
        ]),
      ];
      await roundRobin(1, variants); // warm-up: the disk cache, the bundle's code cache
      const samples = await roundRobin(ROUNDS, variants);
      const version = samplesOf(samples, "agent --version");
      const rows: Row[] = [
        {
          name: "`agent --version`: spawn → exit",
          unit: "ms",
          summary: summarize(version),
          note: "floor: the CLI starts, prints, exits",
        },
      ];
      for (const [command, label] of [
        ["runs", `${SIZES[1]} runs`],
        ["resume", `${SIZES[1]} runs`],
        ["runs", LONG],
        ["resume", LONG],
      ] as const) {
        const few = samplesOf(samples, `agent ${command}, ${SIZES[0]} runs`);
        const many = samplesOf(samples, `agent ${command}, ${label}`);
        const ratios = summarize(many.map((ms, round) => ms / (few[round] ?? Number.NaN)));
        const to = command === "runs" ? "exit" : "first request";
        if (label !== LONG) {
          rows.push({
            name: `\`agent ${command}\`, ${SIZES[0]} runs: spawn → ${to}`,
            unit: "ms",
            summary: summarize(few),
            note: `${(summarize(few).median / summarize(version).median).toFixed(2)}× agent --version`,
          });
        }
        rows.push({
          name: `\`agent ${command}\`, ${label === LONG ? LONG : `${SIZES[1].toLocaleString("en-US")} runs`}: spawn → ${to}`,
          unit: "ms",
          summary: summarize(many),
          note:
            `${ratios.median.toFixed(2)}× ${SIZES[0]} runs (median of per-round ratios, ` +
            `${ratios.min.toFixed(2)}×–${ratios.max.toFixed(2)}×)`,
          ratio: ratios,
          targets: [
            {
              goal: `≤ ${TARGET}× ${SIZES[0]} runs`,
              figure: `${ratios.median.toFixed(2)}×`,
              met: ratios.median <= TARGET,
            },
          ],
        });
      }
      const fresh = samplesOf(samples, FRESH);
      const resumed = samplesOf(samples, RESUMED);
      const resumeRatio = summarize(resumed.map((ms, round) => ms / (fresh[round] ?? Number.NaN)));
      rows.push(
        {
          name: `\`agent "…"\`, fresh start beside a ${LONG_CALLS}-call run: spawn → first request`,
          unit: "ms",
          summary: summarize(fresh),
          note: "floor for a resume: the same workspace and state directory",
        },
        {
          name: `\`agent resume <id>\`, a ${LONG_CALLS}-call run: spawn → first request`,
          unit: "ms",
          summary: summarize(resumed),
          note:
            `${resumeRatio.median.toFixed(2)}× a fresh start (median of per-round ratios, ` +
            `${resumeRatio.min.toFixed(2)}×–${resumeRatio.max.toFixed(2)}×)`,
          ratio: resumeRatio,
          targets: [
            {
              goal: `≤ ${RESUME_TARGET}× a fresh start`,
              figure: `${resumeRatio.median.toFixed(2)}×`,
              met: resumeRatio.median <= RESUME_TARGET,
            },
          ],
        },
      );
      return {
        title: "Run listing",
        rows,
        notes: [
          "every journal a completed one-turn run, the newest unfinished; `agent runs` lists the " +
            "newest 20; one warm-up round discarded.",
          `${LONG}: journals of a real ${LONG_CALLS}-call run (\`read_file\`), completed, ` +
            "behind the workspace's oldest run, unfinished, which `agent resume` passes them to reach.",
        ],
      };
    });
  } finally {
    await server.close();
  }
}

function labelOf(one: Workspace): string {
  return typeof one.size === "number" ? `${one.size} runs` : one.size;
}

function where(one: Workspace): string[] {
  return ["--workspace", one.workspace, "--state-dir", one.stateDir];
}

async function exitMs(
  args: readonly string[],
  cwd: string,
  server: ChatCompletionsServer,
): Promise<number> {
  const start = performance.now();
  const { code, stderr } = await runToExit(process.execPath, [AGENT, ...args], {
    cwd,
    env: agentEnvironment(server.baseURL),
  });
  const ms = performance.now() - start;
  if (code !== 0)
    throw new BenchFailure(`agent ${args.join(" ")} exited ${String(code)}: ${stderr}`);
  return ms;
}

async function resumeMs(one: Workspace, server: ChatCompletionsServer): Promise<number> {
  let arrivedAt = Number.NaN;
  server.enqueue(() => {
    arrivedAt = performance.now();
    return chatTextReply("bench: resumed");
  });
  const start = performance.now();
  const { code, stderr } = await runToExit(process.execPath, [AGENT, "resume", ...where(one)], {
    cwd: one.workspace,
    env: agentEnvironment(server.baseURL),
  });
  if (code !== 0 || Number.isNaN(arrivedAt)) {
    throw new BenchFailure(`agent resume exited ${String(code)}: ${stderr}`);
  }
  // Unfinished again for the next round (untimed).
  await writeFile(one.unfinished.path, one.unfinished.started);
  return arrivedAt - start;
}

/** A workspace whose state holds `size` journals: completed runs, the newest one unfinished. */
async function workspaceWithRuns(
  directory: string,
  size: number,
  server: ChatCompletionsServer,
): Promise<Workspace> {
  const workspace = join(directory, `workspace-${size}`);
  const stateDir = join(directory, `state-${size}`);
  await mkdir(workspace);
  // One real run creates the state directory and shows the journal's shape.
  server.enqueue(chatTextReply("bench: done"));
  const first = await runToExit(
    process.execPath,
    [AGENT, "--workspace", workspace, "--state-dir", stateDir, "--sandbox", "off", "Say done."],
    { cwd: workspace, env: agentEnvironment(server.baseURL) },
  );
  if (first.code !== 0) throw new BenchFailure(`the first run failed: ${first.stderr}`);
  const [state] = await readdir(join(stateDir, "workspaces"));
  const runs = join(stateDir, "workspaces", state ?? "", "runs");
  const [journal] = (await readdir(runs)).filter((name) => name.endsWith(".jsonl"));
  if (journal === undefined) throw new BenchFailure("the first run wrote no journal");
  const template = await readFile(join(runs, journal), "utf8");
  await rm(join(runs, journal));
  const oldId = journal.slice(0, -".jsonl".length);
  let newest = { path: "", started: "" };
  for (let index = 0; index < size; index += 1) {
    const time = new Date(Date.UTC(2026, 0, 1) + index * 60_000);
    const stamp = time.toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
    const runId = `${stamp}-${index.toString(16).padStart(8, "0")}`;
    const text = template
      .replaceAll(oldId, runId)
      .replace(/"time":"[^"]*"/g, `"time":"${time.toISOString()}"`);
    const path = join(runs, `${runId}.jsonl`);
    await writeFile(path, text);
    if (index === size - 1) {
      newest = { path, started: `${text.split("\n")[0] ?? ""}\n` };
      await writeFile(path, newest.started);
    }
  }
  return { size, workspace, stateDir, unfinished: newest };
}

/**
 * A workspace whose oldest run is unfinished and small, and whose LONG_RUNS newer ones are
 * completed copies of one real LONG_CALLS-call run.
 */
async function workspaceWithLongRuns(
  directory: string,
  server: ChatCompletionsServer,
): Promise<Workspace> {
  const workspace = join(directory, "workspace-long");
  const stateDir = join(directory, "state-long");
  await mkdir(workspace);
  server.enqueue(chatTextReply("bench: done"));
  const first = await runToExit(
    process.execPath,
    [AGENT, "--workspace", workspace, "--state-dir", stateDir, "--sandbox", "off", "Say done."],
    { cwd: workspace, env: agentEnvironment(server.baseURL) },
  );
  if (first.code !== 0) throw new BenchFailure(`the first run failed: ${first.stderr}`);
  await runOfCalls(workspace, stateDir, LONG_CALLS);
  const runs = await runsOf(stateDir);
  const journals: { id: string; text: string }[] = [];
  for (const name of (await readdir(runs)).filter((one) => one.endsWith(".jsonl"))) {
    journals.push({
      id: name.slice(0, -".jsonl".length),
      text: await readFile(join(runs, name), "utf8"),
    });
    await rm(join(runs, name));
  }
  journals.sort((a, b) => a.text.length - b.text.length);
  const [small, long] = journals;
  if (small === undefined || long === undefined) throw new BenchFailure("expected two journals");
  const copy = async (index: number, journal: { id: string; text: string }, text: string) => {
    const time = new Date(Date.UTC(2026, 0, 1) + index * 60_000);
    const stamp = time.toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
    const runId = `${stamp}-${index.toString(16).padStart(8, "0")}`;
    const path = join(runs, `${runId}.jsonl`);
    const copied = text.replaceAll(journal.id, runId);
    await writeFile(path, copied);
    return { path, started: copied };
  };
  const unfinished = await copy(0, small, `${small.text.split("\n")[0] ?? ""}\n`);
  for (let index = 1; index <= LONG_RUNS; index += 1) await copy(index, long, long.text);
  return { size: LONG, workspace, stateDir, unfinished };
}

/**
 * A real LONG_CALLS-call run whose journal then loses its last two records (the final answer and
 * the run's end), as if the process had died after its last call: `agent resume` goes on from
 * there with a request.
 */
async function workspaceWithLongUnfinished(directory: string): Promise<Resumable> {
  const workspace = join(directory, "workspace-resume");
  const stateDir = join(directory, "state-resume");
  await runOfCalls(workspace, stateDir, LONG_CALLS);
  const runs = await runsOf(stateDir);
  const [name] = (await readdir(runs)).filter((one) => one.endsWith(".jsonl"));
  if (name === undefined) throw new BenchFailure("the long run wrote no journal");
  const journal = join(runs, name);
  const lines = (await readFile(journal, "utf8")).split("\n").filter((line) => line !== "");
  const last = lines.slice(-2).map((line) => (JSON.parse(line) as { type: string }).type);
  if (last.join(",") !== "model_reply,run_finished") {
    throw new BenchFailure(`the long run ended with ${last.join(", ")}`);
  }
  const text = `${lines.slice(0, -2).join("\n")}\n`;
  await writeFile(journal, text);
  return { workspace, stateDir, runId: name.slice(0, -".jsonl".length), journal, text };
}

async function freshStartMs(one: Resumable, server: ChatCompletionsServer): Promise<number> {
  return firstRequestMs(
    ["--workspace", one.workspace, "--state-dir", one.stateDir, "Say done."],
    one.workspace,
    server,
  );
}

async function resumeLongMs(one: Resumable, server: ChatCompletionsServer): Promise<number> {
  const ms = await firstRequestMs(
    ["resume", one.runId, "--workspace", one.workspace, "--state-dir", one.stateDir],
    one.workspace,
    server,
  );
  await writeFile(one.journal, one.text); // unfinished again for the next round (untimed)
  return ms;
}

async function firstRequestMs(
  args: readonly string[],
  cwd: string,
  server: ChatCompletionsServer,
): Promise<number> {
  let arrivedAt = Number.NaN;
  server.enqueue(() => {
    arrivedAt = performance.now();
    return chatTextReply("bench: done");
  });
  const start = performance.now();
  const { code, stderr } = await runToExit(process.execPath, [AGENT, ...args], {
    cwd,
    env: agentEnvironment(server.baseURL),
  });
  if (code !== 0 || Number.isNaN(arrivedAt)) {
    throw new BenchFailure(`agent ${args.join(" ")} exited ${String(code)}: ${stderr}`);
  }
  return arrivedAt - start;
}

async function runsOf(stateDir: string): Promise<string> {
  const [state] = await readdir(join(stateDir, "workspaces"));
  return join(stateDir, "workspaces", state ?? "", "runs");
}

/** This process's environment minus anything that could change the agent's run. */
function agentEnvironment(baseURL: string): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.startsWith("OPENAI_") || name.startsWith("AGENT_")) continue;
    environment[name] = value;
  }
  return { ...environment, OPENAI_API_KEY: "dummy", OPENAI_BASE_URL: baseURL, NO_COLOR: "1" };
}
