/**
 * Runs one `agent <subcommand>` handler in-process with a piped, non-terminal I/O and returns its
 * exit code and what it wrote to stdout and stderr.
 */
import { PassThrough } from "node:stream";
import type { CliIo } from "../../src/cli/cli-io.js";
import type { SubcommandHandler } from "../../src/cli/commands/index.js";

export interface CapturedRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export async function runCapturedSubcommand(
  handler: SubcommandHandler,
  args: readonly string[],
  where: {
    readonly home: string;
    readonly cwd: string;
    /** More of the environment, beside HOME. */
    readonly env?: Readonly<Record<string, string | undefined>>;
  },
): Promise<CapturedRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const io = {
    argv: [],
    env: { HOME: where.home, ...where.env },
    cwd: where.cwd,
    platform: "linux",
    stdin: Object.assign(new PassThrough(), { isTTY: false }),
    stdout,
    stderr,
    interrupts: { on: () => undefined },
  } as unknown as CliIo;
  const code = await handler(args, io);
  // The streams' last 'data' events arrive on the next turn.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, out, err };
}
