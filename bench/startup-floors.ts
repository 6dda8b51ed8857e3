/**
 * Issue 19: the floors the start-up rows are read against, with and without `NODE_EXTRA_CA_CERTS`
 * in the child (set on some machines; Node then reads the file at every start, ~50 ms here), and a
 * bare `node:http` request floor (no `fetch`, so no undici to load). The start-up section's own
 * children inherit the bench's environment as it is.
 */
import { createServer, type Server } from "node:http";
import { performance } from "node:perf_hooks";
import {
  BenchFailure,
  ratio,
  roundRobin,
  runToExit,
  samplesOf,
  type Row,
  type SectionResult,
  type Variant,
} from "./measurement.js";
import { summarize } from "./stats.js";

const ROUNDS = 5;
const CA_VARIABLE = "NODE_EXTRA_CA_CERTS";

interface Floor {
  readonly name: string;
  readonly script: string;
  readonly withCa: boolean;
  /** Timed to the request's arrival, else to the exit. */
  readonly request: boolean;
}

export async function measureStartupFloors(): Promise<SectionResult> {
  const caFile = process.env[CA_VARIABLE];
  const arrivals: number[] = [];
  const server = createServer((request, response) => {
    arrivals.push(performance.now());
    request.resume();
    response.end("ok");
  });
  await listen(server);
  try {
    const url = `http://127.0.0.1:${portOf(server)}/`;
    const httpScript =
      `require("node:http").request(${JSON.stringify(url)}, { method: "POST" }, ` +
      `(r) => r.resume()).end("{}")`;
    const floors: Floor[] = [];
    for (const withCa of caFile === undefined ? [false] : [false, true]) {
      const suffix = withCa ? ` (${CA_VARIABLE} set)` : "";
      floors.push({ name: `node -e 0${suffix}`, script: "0", withCa, request: false });
      floors.push({
        name: `node: node:http request${suffix}`,
        script: httpScript,
        withCa,
        request: true,
      });
    }
    const variants: Variant[] = floors.map((floor) => ({
      name: floor.name,
      run: async () => {
        const environment = Object.fromEntries(
          Object.entries(process.env).filter(([name]) => name !== CA_VARIABLE),
        );
        if (floor.withCa) environment[CA_VARIABLE] = caFile;
        arrivals.length = 0;
        const start = performance.now();
        const { code, stderr } = await runToExit(process.execPath, ["-e", floor.script], {
          cwd: process.cwd(),
          env: environment,
        });
        const exitMs = performance.now() - start;
        if (code !== 0) throw new BenchFailure(`${floor.name} exited ${String(code)}: ${stderr}`);
        if (!floor.request) return exitMs;
        const arrived = arrivals[0];
        if (arrived === undefined) throw new BenchFailure(`${floor.name} never reached the server`);
        return arrived - start;
      },
    }));
    await roundRobin(1, variants); // warm-up: disk cache
    const samples = await roundRobin(ROUNDS, variants);
    const median = (name: string): number => summarize(samplesOf(samples, name)).median;
    const rows: Row[] = floors.map((floor) => {
      const summary = summarize(samplesOf(samples, floor.name));
      const plain = floors.find((other) => !other.withCa && other.script === floor.script);
      const note =
        floor.withCa && plain !== undefined
          ? `${ratio(summary.median, median(plain.name))} without it (+${Math.round(summary.median - median(plain.name))} ms)`
          : floor.request
            ? `floor for an HTTP request without fetch; ${ratio(summary.median, median("node -e 0"))} node -e 0`
            : "floor: spawn → exit";
      return {
        name: `\`${floor.name}\`: spawn → ${floor.request ? "request arrives" : "exit"}`,
        unit: "ms",
        summary,
        note,
      };
    });
    return {
      title: "Start-up floors",
      rows,
      notes: [
        caFile === undefined
          ? `${CA_VARIABLE} is not set here, so there are no rows with it.`
          : `${CA_VARIABLE} is set in the bench's environment; the start-up section's children ` +
            "inherit it, so compare its rows with the floors that have it too.",
      ],
    };
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("server has no port");
  return address.port;
}
