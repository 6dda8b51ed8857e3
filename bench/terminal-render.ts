/**
 * Issue 32 §3: a long answer on a terminal against the same answer piped. The built CLI
 * (dist/agent.cjs) gets a streamed answer from a local chat-completions server, once with stdout
 * and stderr piped (nothing is laid out: the answer is printed as the model wrote it) and once under
 * a pseudo-terminal 100 columns wide (util-linux `script`; the text is escaped, indented and broken
 * into rows as it streams, and the final answer is laid out as markdown). Each figure runs from the
 * request reaching the server to the CLI's exit, so start-up is left out. Target: the terminal ≤ 1.5×
 * piped (median of per-round ratios). Linux only.
 *
 * What either side shows goes to a file, counted after the exit, not through this process: it is
 * also the model server, and a server busy sending the stream could not read the terminal, whose
 * full buffer then stopped the CLI mid-answer, a wait no person at a real terminal has (and the
 * piped side, which writes only at the end, never had). The end is the CLI's own exit, stamped
 * by a small parent process on both sides (EXIT_STAMP). Both sides do the same work but the
 * layout and the pseudo-terminal.
 */
import { spawn } from "node:child_process";
import { mkdir, open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  ChatCompletionsServer,
  chatStreamTextReply,
} from "../tests/support/chat-completions-server.js";
import {
  BenchFailure,
  buildAgentBundle,
  collectOwnGarbage,
  roundRobin,
  samplesOf,
  withTempDir,
  type Row,
  type SectionResult,
  type Variant,
} from "./measurement.js";
import { summarize } from "./stats.js";

const ROUNDS = 9;
const AGENT = fileURLToPath(new URL("../dist/agent.cjs", import.meta.url));
const PIECE_CHARS = 32;
const COLUMNS = 100;
const TARGET = 1.5;

interface Answer {
  readonly name: string;
  readonly text: string;
}

export async function measureTerminalRender(): Promise<SectionResult> {
  await buildAgentBundle();
  const answers: readonly Answer[] = [
    { name: "1 MiB of prose", text: prose(2 ** 20) },
    { name: "5,000 lines of markdown", text: markdownLines(5000) },
  ];
  return withTempDir("render", async (directory) => {
    const workspace = join(directory, "workspace");
    await mkdir(workspace);
    const variants: Variant[] = answers.flatMap((answer) =>
      (["piped", "terminal"] as const).map((how) => ({
        name: `${answer.name}, ${how}`,
        run: async () => answerOnce(answer, how, workspace),
      })),
    );
    await roundRobin(1, variants); // warm-up: the disk cache, the bundle's code cache
    const samples = await roundRobin(ROUNDS, variants);
    const rows: Row[] = answers.flatMap((answer) => {
      const piped = samplesOf(samples, `${answer.name}, piped`);
      const terminal = samplesOf(samples, `${answer.name}, terminal`);
      const ratios = summarize(terminal.map((ms, round) => ms / (piped[round] ?? Number.NaN)));
      return [
        {
          name: `${answer.name}, piped`,
          unit: "ms" as const,
          summary: summarize(piped),
          note: "floor: printed as written, nothing laid out",
        },
        {
          name: `${answer.name}, on a terminal`,
          unit: "ms" as const,
          summary: summarize(terminal),
          note:
            `${ratios.median.toFixed(2)}× piped (median of per-round ratios, ` +
            `${ratios.min.toFixed(2)}×–${ratios.max.toFixed(2)}×)`,
          ratio: ratios,
          targets: [
            {
              goal: `≤ ${TARGET}× piped`,
              figure: `${ratios.median.toFixed(2)}×`,
              met: ratios.median <= TARGET,
            },
          ],
        },
      ];
    });
    return {
      title: "Terminal rendering",
      rows,
      notes: [
        `request reaching the server → CLI exit (stamped on exit, not when \`script\` ends); ` +
          `the answer streamed in ${PIECE_CHARS}-character pieces; the terminal is util-linux ` +
          `\`script\`, ${COLUMNS} columns; both sides' output goes to a file, not through the ` +
          `bench (which is the model server too); one warm-up round discarded.`,
      ],
    };
  });
}

async function answerOnce(
  answer: Answer,
  how: "piped" | "terminal",
  workspace: string,
): Promise<number> {
  collectOwnGarbage();
  let arrivedAt: bigint | undefined;
  const server = await ChatCompletionsServer.start([
    () => {
      arrivedAt = process.hrtime.bigint();
      return chatStreamTextReply(piecesOf(answer.text));
    },
  ]);
  try {
    const args = ["--workspace", workspace, "--sandbox", "off", "Answer at length."];
    const env = agentEnvironment(server.baseURL);
    const { code, bytes, exitedAt } =
      how === "piped"
        ? await pipedRun(args, env, workspace)
        : await terminalRun(args, env, workspace);
    if (code !== 0 || arrivedAt === undefined) {
      throw new BenchFailure(`the CLI (${how}) exited ${String(code)} after ${bytes} bytes`);
    }
    if (bytes < answer.text.length) {
      throw new BenchFailure(`the CLI (${how}) showed ${bytes} bytes of a longer answer`);
    }
    return Number(exitedAt - arrivedAt) / 1e6;
  } finally {
    await server.close();
  }
}

interface Shown {
  readonly code: number | null;
  /** What the run's stdout (the terminal: everything it showed) held at the end. */
  readonly bytes: number;
  /** When the CLI exited, on the monotonic clock `process.hrtime` reads in every process. */
  readonly exitedAt: bigint;
}

/**
 * Runs a command and, the moment it exits, writes the monotonic clock to the file named first.
 * The end of a figure is the CLI's exit, as a person sees it: not `script`'s, which goes on
 * polling for 10 ms after its child has gone (util-linux pty-session.c), nor the bench's noticing
 * it. Both sides run under it, so both pay for it alike (a process waiting, started before the
 * request).
 */
const EXIT_STAMP = [
  'const { spawnSync } = require("node:child_process");',
  "const [stampFile, executable, ...args] = process.argv.slice(1);",
  'const { status } = spawnSync(executable, args, { stdio: "inherit" });',
  'require("node:fs").writeFileSync(stampFile, String(process.hrtime.bigint()));',
  "process.exit(status ?? 1);",
].join("\n");

function stamped(stampFile: string, args: readonly string[]): string[] {
  return ["-e", EXIT_STAMP, stampFile, process.execPath, AGENT, ...args];
}

/** Stdout and stderr to files, stdin an empty pipe: a run in a script. */
async function pipedRun(
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
): Promise<Shown> {
  return withOutputFiles(cwd, ({ stdout, stderr, stampFile }) =>
    exitOf(process.execPath, stamped(stampFile, args), {
      cwd,
      env,
      stdout,
      stderr,
      stdin: "closed",
    }),
  );
}

/** Under `script`, the terminal set to COLUMNS columns first; what it shows goes to a file. */
async function terminalRun(
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
): Promise<Shown> {
  return withOutputFiles(cwd, ({ stdout, stampFile }) => {
    const command = [process.execPath, ...stamped(stampFile, args)].map(shellQuote).join(" ");
    return exitOf(
      "script",
      ["-qefc", `stty cols ${COLUMNS} rows 50 && exec ${command}`, "/dev/null"],
      {
        cwd,
        env,
        stdout,
        stderr: "inherit",
        // An open pipe that `script` relays to the terminal: nobody types.
        stdin: "open",
      },
    );
  });
}

/** Fresh files for a run's output and its exit stamp, removed after. */
async function withOutputFiles(
  cwd: string,
  run: (files: { stdout: number; stderr: number; stampFile: string }) => Promise<number | null>,
): Promise<Shown> {
  const [outPath, errPath, stampFile] = ["shown.out", "shown.err", "exited"].map((name) =>
    join(cwd, "..", name),
  ) as [string, string, string];
  const stdout = await open(outPath, "w");
  const stderr = await open(errPath, "w");
  try {
    const code = await run({ stdout: stdout.fd, stderr: stderr.fd, stampFile });
    const stamp = await readFile(stampFile, "utf8").catch(() => "");
    if (!/^\d+$/u.test(stamp)) throw new BenchFailure(`no exit stamp (exit code ${String(code)})`);
    return { code, bytes: (await stdout.stat()).size, exitedAt: BigInt(stamp) };
  } finally {
    await Promise.all([stdout.close(), stderr.close()]);
    await Promise.all([outPath, errPath, stampFile].map((path) => rm(path, { force: true })));
  }
}

function exitOf(
  executable: string,
  args: readonly string[],
  options: {
    readonly cwd: string;
    readonly env: Record<string, string>;
    readonly stdout: number;
    readonly stderr: number | "inherit";
    readonly stdin: "open" | "closed";
  },
): Promise<number | null> {
  const { cwd, env, stdout, stderr } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(executable, [...args], { cwd, env, stdio: ["pipe", stdout, stderr] });
    if (options.stdin === "closed") child.stdin?.end();
    child.once("error", reject);
    child.once("close", (code) => {
      resolve(code);
    });
  });
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += PIECE_CHARS)
    pieces.push(text.slice(at, at + PIECE_CHARS));
  return pieces;
}

/** Sentences in paragraphs, mostly ASCII with the odd dash and accent, as a model writes them. */
function prose(chars: number): string {
  const sentences = [
    "The harness decides in code whether each call may run — before any side effect. ",
    "A réviewer reads the audit line, then the diff, and types y or n. ",
    "Every control character is shown as an escape; long blank runs become a count. ",
    "Rows are broken here, so no row of model text starts at column 0.\n\n",
  ];
  let text = "";
  for (let index = 0; text.length < chars; index += 1) {
    text += sentences[index % sentences.length] ?? "";
  }
  return text.slice(0, chars);
}

/** Headings, paragraphs, lists, code and tables, `count` lines in all. */
function markdownLines(count: number): string {
  const block = [
    "## Step {n}: what changed",
    "",
    "The **policy** now asks *before* the write, and `safePath` checks the [boundary](https://example.com/docs).",
    "",
    "- one item with `code`",
    "- another item — with a dash",
    "  1. nested and numbered",
    "",
    "```ts",
    "const decision = await policy.decide(request); // {n}",
    "```",
    "",
    "| tool | effect | decision |",
    "| ---- | ------ | -------: |",
    "| read_file | read | allow |",
    "",
    "> A quoted line that is long enough to wrap on a terminal of one hundred columns, and then some more words.",
    "",
  ];
  const lines: string[] = [];
  for (let n = 0; lines.length < count; n += 1) {
    for (const line of block) lines.push(line.replaceAll("{n}", String(n)));
  }
  return lines.slice(0, count).join("\n");
}

/** This process's environment minus anything that could change the agent's run. */
function agentEnvironment(baseURL: string): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.startsWith("OPENAI_") || name.startsWith("AGENT_")) continue;
    environment[name] = value;
  }
  return { ...environment, OPENAI_API_KEY: "dummy", OPENAI_BASE_URL: baseURL };
}
