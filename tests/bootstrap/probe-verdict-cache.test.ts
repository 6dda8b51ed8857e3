import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ShellExecution, StartedShellExecution } from "../../src/adapters/execution/index.js";
import { probeVerdictPath } from "../../src/adapters/state/index.js";
import {
  networkNoticeGateFor,
  openProbeVerdictCache,
  type ProbeVerdictCache,
} from "../../src/bootstrap/open/probe-verdict-cache.js";
import type { ModelClient, ModelRequest } from "../../src/core/ports/model.js";
import {
  SANDBOX_NETWORK_NOTICE_CORRECTIONS,
  SANDBOX_NETWORK_OFF_NOTICE,
} from "../../src/features/sandbox-network-notice.js";
import { RecordingCommandRunner } from "../support/recording-command-runner.js";
import { ScriptedModelClient, textReply } from "../support/scripted-model.js";
import { settlesSoon } from "../support/settles-soon.js";

let root: string;
let stateRoot: string;
let bin: string;

beforeEach(async () => {
  root = await mkdtemp(join(await realpath(tmpdir()), "probe-verdict-cache-"));
  stateRoot = join(root, "state");
  bin = join(root, "bin");
  await mkdir(stateRoot, { mode: 0o700 });
  await mkdir(bin);
  await writeFile(join(bin, "bwrap"), "#!/bin/sh\n", { mode: 0o755 });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const TOLD: ModelRequest = {
  messages: [
    { role: "system", content: `You are an agent.\n${SANDBOX_NETWORK_OFF_NOTICE}` },
    { role: "user", content: "install left-pad" },
  ],
  tools: [{ name: "shell", description: `Run. ${SANDBOX_NETWORK_OFF_NOTICE}`, parameters: {} }],
};

function cache(): ProbeVerdictCache {
  return openProbeVerdictCache(
    stateRoot,
    {
      sandbox: "auto",
      network: false,
      shell: "auto",
      host: { env: { PATH: bin }, platform: "linux" },
    },
    { bwrapPath: join(bin, "bwrap") },
  );
}

const runner = new RecordingCommandRunner();
const SANDBOXED: ShellExecution = {
  runner,
  argvRunner: { run: () => Promise.reject(new Error("not in this test")) },
  environment: { status: () => ({ kind: "isolated", network: "disabled", label: "sandbox" }) },
  networkOff: true,
};
const ON_HOST: ShellExecution = {
  runner,
  argvRunner: { run: () => Promise.reject(new Error("not in this test")) },
  environment: { status: () => ({ kind: "host", label: "host" }) },
  fallbackReason: "The sandbox cannot start: user namespaces are disabled",
};

/** A deferred probe, as startShellExecution returns it in `auto` with the network off. */
function startedExecution(): {
  execution: StartedShellExecution;
  decide: (d: ShellExecution) => void;
  probeStarts: () => number;
} {
  let decide: (decided: ShellExecution) => void = () => undefined;
  const ready = new Promise<ShellExecution>((done) => (decide = done));
  let starts = 0;
  return {
    probeStarts: () => starts,
    execution: {
      runner,
      environment: { status: () => ({ kind: "unavailable", reason: "pending" }) },
      ready,
      startProbe: () => {
        starts += 1;
      },
      abandonProbe: () => undefined,
      networkOff: true,
    },
    decide,
  };
}

/** One start of the agent: the gates as composeRun stacks them, the probe decided by the test. */
function start(): {
  model: ScriptedModelClient;
  client: ModelClient;
  decide: (decided: ShellExecution) => void;
  ready: Promise<ShellExecution>;
  probeStarts: () => number;
} {
  const model = new ScriptedModelClient([textReply("one"), textReply("two"), textReply("three")]);
  const { execution, decide, probeStarts } = startedExecution();
  const client = networkNoticeGateFor(model, execution, cache);
  return { model, client, decide, ready: execution.ready, probeStarts };
}

/** The probe has decided, and the gate has seen it (a few promise turns later). */
async function decided(run: { ready: Promise<ShellExecution> }): Promise<void> {
  await run.ready;
  await new Promise<void>((resolve) => setImmediate(resolve));
}

describe("the probe's verdict remembered per machine", () => {
  it("first start: the first request waits for the probe, whose verdict is then remembered", async () => {
    const run = start();
    // It must wait, so the probe starts at once rather than when the model would be waiting.
    expect(run.probeStarts()).toBe(1);
    const first = run.client.complete(TOLD);
    expect(await settlesSoon(first)).toBe(false);
    expect(run.model.requests).toHaveLength(0);
    run.decide(SANDBOXED);
    await first;
    expect(run.model.requests[0]?.messages).toEqual(TOLD.messages);
    expect(cache().remembered).toEqual({ sandboxUsable: true, networkOff: true });
  });

  it("next start: requests leave and replies come back before the probe settles, as remembered", async () => {
    cache().remember(SANDBOXED);
    const run = start();
    expect(run.probeStarts()).toBe(0);
    const first = run.client.complete(TOLD);
    expect(run.model.requests).toHaveLength(1);
    expect(run.model.requests[0]?.messages).toEqual(TOLD.messages);
    expect((await first).message.content).toBe("one");
    expect((await run.client.complete(TOLD)).message.content).toBe("two");
    expect(run.model.requests[1]?.messages).toEqual(TOLD.messages);
    run.decide(SANDBOXED);
    await decided(run);
    await run.client.complete(TOLD);
    expect(run.model.requests[2]?.messages).toEqual(TOLD.messages);
  });

  it("the probe disagrees: the next request is truthful and corrected, and the memory rewritten", async () => {
    cache().remember(SANDBOXED);
    const run = start();
    const first = run.client.complete(TOLD);
    expect(run.model.requests[0]?.messages).toEqual(TOLD.messages);
    await first;
    // Still undecided: the second request says what the memory says, like the first.
    await run.client.complete(TOLD);
    expect(run.model.requests[1]?.messages).toEqual(TOLD.messages);
    run.decide(ON_HOST);
    await decided(run);
    await run.client.complete(TOLD);
    expect(run.model.requests[2]?.messages[0]).toEqual({
      role: "system",
      content: `You are an agent.\n${SANDBOX_NETWORK_NOTICE_CORRECTIONS.networkOn}`,
    });
    expect(run.model.requests[2]?.tools[0]?.description).toBe("Run.");
    expect(cache().remembered).toEqual({
      sandboxUsable: false,
      fallbackReason: ON_HOST.fallbackReason,
      networkOff: false,
    });

    // The start after that goes out at once without the line, and the probe agrees.
    const again = start();
    const next = again.client.complete(TOLD);
    expect(again.model.requests[0]?.messages[0]).toEqual({
      role: "system",
      content: "You are an agent.",
    });
    again.decide(ON_HOST);
    await next;
  });

  it("a probe the run's end stopped leaves the memory as it was", async () => {
    cache().remember(SANDBOXED);
    const run = start();
    await run.client.complete(TOLD);
    run.decide({ ...ON_HOST, abandoned: true });
    await decided(run);
    expect(cache().remembered).toEqual({ sandboxUsable: true, networkOff: true });
  });

  it("another machine or setting (a replaced bwrap): the memory does not apply, the request waits", async () => {
    cache().remember(SANDBOXED);
    await writeFile(join(bin, "bwrap"), "#!/bin/sh\n# upgraded\n", { mode: 0o755 });
    expect(cache().remembered).toBeUndefined();
    const run = start();
    const first = run.client.complete(TOLD);
    expect(await settlesSoon(first)).toBe(false);
    expect(run.model.requests).toHaveLength(0);
    run.decide(SANDBOXED);
    await first;
  });

  it.skipIf(process.platform === "win32")(
    "a planted link at the cache's name is not followed: the request waits, the link is replaced",
    async () => {
      cache().remember(SANDBOXED);
      const elsewhere = join(root, "elsewhere.json");
      await writeFile(elsewhere, await readFile(probeVerdictPath(stateRoot)));
      await rm(probeVerdictPath(stateRoot));
      await symlink(elsewhere, probeVerdictPath(stateRoot));
      const run = start();
      const first = run.client.complete(TOLD);
      expect(await settlesSoon(first)).toBe(false);
      run.decide(SANDBOXED);
      await first;
      await run.ready;
      await settlesSoon(Promise.resolve());
      expect((await lstat(probeVerdictPath(stateRoot))).isSymbolicLink()).toBe(false);
      expect(cache().remembered).toEqual({ sandboxUsable: true, networkOff: true });
    },
  );

  it("a cache that cannot be opened (its fingerprint throws) remembers nothing: the request waits for the probe", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    const { execution, decide } = startedExecution();
    const client = networkNoticeGateFor(model, execution, () => {
      throw new Error("EACCES: cannot stat bwrap");
    });
    const first = client.complete(TOLD);
    expect(await settlesSoon(first)).toBe(false);
    expect(model.requests).toHaveLength(0);
    decide(SANDBOXED);
    expect((await first).message.content).toBe("one");
    expect(model.requests[0]?.messages).toEqual(TOLD.messages);
  });

  it.each([true, false])(
    "a probe that rejects leaves no unhandled rejection (told: %s), and the notice is not kept",
    async (told) => {
      const unhandled: unknown[] = [];
      const record = (reason: unknown): void => {
        unhandled.push(reason);
      };
      process.on("unhandledRejection", record);
      try {
        const model = new ScriptedModelClient([textReply("one")]);
        let fail: (error: Error) => void = () => undefined;
        const ready = new Promise<ShellExecution>((_, reject) => (fail = reject));
        const { execution } = startedExecution();
        const client = networkNoticeGateFor(
          model,
          { ...execution, ready, networkOff: told },
          cache,
        );
        fail(new Error("the probe crashed"));
        await client.complete(TOLD);
        for (let turn = 0; turn < 5; turn += 1) {
          await new Promise((resolve) => setImmediate(resolve));
        }
        expect(unhandled).toEqual([]);
        expect(model.requests[0]?.messages[0]).toEqual(
          told ? { role: "system", content: "You are an agent." } : TOLD.messages[0],
        );
        expect(cache().remembered).toBeUndefined();
      } finally {
        process.off("unhandledRejection", record);
      }
    },
  );

  it("not told (network on): no cache is read or written", async () => {
    const model = new ScriptedModelClient([textReply("one")]);
    const { execution, decide } = startedExecution();
    let opened = false;
    const client = networkNoticeGateFor(model, { ...execution, networkOff: false }, () => {
      opened = true;
      return cache();
    });
    await client.complete(TOLD);
    decide(SANDBOXED);
    expect(opened).toBe(false);
    await expect(lstat(probeVerdictPath(stateRoot))).rejects.toThrow(/ENOENT/);
  });
});
