/** One decision of every setting, for every command: flag > environment > file > journal > default. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { baseURL, resolveSettings } from "../../../src/cli/settings/resolve-settings.js";

let home: string;

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), "resolve-settings-")));
});

afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

/** The settings file under the injected HOME, where the one home rule finds it. */
function withFile(values: object): Record<string, string> {
  mkdirSync(join(home, ".config", "agent-harness"), { recursive: true });
  writeFileSync(join(home, ".config", "agent-harness", "settings.json"), JSON.stringify(values));
  return { HOME: home };
}

const host = (env: Record<string, string>) => ({ env, platform: "linux" as const, cwd: home });

describe("resolveSettings", () => {
  it("finds the settings file under the injected HOME", () => {
    const settings = resolveSettings([], host(withFile({ chapter: 4 })));
    expect(settings.file.path).toBe(join(home, ".config", "agent-harness", "settings.json"));
    expect(settings.options.profile.chapter).toBe(4);
    expect(settings.origins.chapter).toBe("settings file");
  });

  it("a resume takes the file's endpoint, timeout and retries, and the journal's chapter, model and sandbox", () => {
    const env = withFile({
      chapter: 2,
      model: "file-model",
      baseURL: "http://127.0.0.1:9/v1",
      requestTimeout: 42,
      retries: 7,
      sandbox: "off",
    });
    const settings = resolveSettings([], host(env), {
      runId: "run-1",
      start: { chapter: 3, model: "journal-model", sandbox: "auto", network: false },
    });
    expect({
      chapter: settings.options.profile.chapter,
      model: settings.options.model,
      sandbox: settings.options.sandbox,
      network: settings.options.network,
      baseURL: baseURL(settings),
      requestTimeoutMs: settings.options.requestTimeoutMs,
      retries: settings.options.retries,
    }).toEqual({
      chapter: 3,
      model: "journal-model",
      sandbox: "auto",
      network: false,
      baseURL: "http://127.0.0.1:9/v1",
      requestTimeoutMs: 42_000,
      retries: 7,
    });
    expect(settings.origins).toEqual({
      model: "the run's journal",
      baseURL: "settings file",
      chapter: "the run's journal",
      sandbox: "the run's journal",
      network: "the run's journal",
      language: "default, from $LANG",
      contextWindow: "default",
      requestTimeout: "settings file",
      retries: "settings file",
      commandTimeout: "default",
    });
  });

  it("a resume keeps the run's command timeout over the file's, and refuses another one given", () => {
    const env = withFile({ commandTimeout: 900 });
    const start = {
      chapter: 4,
      sandbox: "auto",
      network: false,
      commandTimeoutMs: 300_000,
    } as const;
    const kept = resolveSettings([], host(env), { runId: "run-1", start });
    expect([kept.options.commandTimeoutMs, kept.origins.commandTimeout]).toEqual([
      300_000,
      "the run's journal",
    ]);
    const same = resolveSettings(["--command-timeout", "300"], host(env), {
      runId: "run-1",
      start,
    });
    expect(same.options.commandTimeoutMs).toBe(300_000);
    expect(() =>
      resolveSettings(["--command-timeout", "900"], host(env), { runId: "run-1", start }),
    ).toThrow(
      "run run-1 was started with --command-timeout 300, and resume keeps it: leave out --command-timeout (or give --command-timeout 300)",
    );
    // The environment is ambient, like the file: the journal's limit stays, and is named.
    const ambient = resolveSettings([], host({ ...env, AGENT_COMMAND_TIMEOUT: "60" }), {
      runId: "run-1",
      start,
    });
    expect([ambient.options.commandTimeoutMs, ambient.origins.commandTimeout]).toEqual([
      300_000,
      "the run's journal",
    ]);
    // A journal written before the limit was kept: the limit decided now, as for a new run.
    const old = resolveSettings([], host(env), { runId: "run-0", start: { chapter: 3 } });
    expect([old.options.commandTimeoutMs, old.origins.commandTimeout]).toEqual([
      900_000,
      "settings file",
    ]);
  });

  it("a resume of a run of a named profile is that profile again, whatever the file's chapter", () => {
    const settings = resolveSettings([], host(withFile({ chapter: 4 })), {
      runId: "run-d",
      start: { chapter: 3, profile: "daily", sandbox: "auto", network: false },
    });
    expect(settings.options.profile.id).toBe("daily");
    expect(settings.origins.profile).toBe("the run's journal");
    // A chapter's own run resumes as its chapter: the profile id names no profile of its own.
    const chapter = resolveSettings([], host(withFile({ profile: "daily" })), {
      runId: "run-3",
      start: { chapter: 3, profile: "P03", sandbox: "auto", network: false },
    });
    expect(chapter.options.profile.id).toBe("P03");
    expect(chapter.origins.profile).toBe("the run's journal");
  });

  it("a resume's flags and environment still beat the file for what the journal does not record", () => {
    const env = { ...withFile({ requestTimeout: 42, retries: 7 }), AGENT_RETRIES: "1" };
    const settings = resolveSettings(["--request-timeout", "5"], host(env), {
      runId: "run-1",
      start: { chapter: 3 },
    });
    expect([settings.options.requestTimeoutMs, settings.options.retries]).toEqual([5000, 1]);
    expect([settings.origins.requestTimeout, settings.origins.retries]).toEqual([
      "flag --request-timeout",
      "environment AGENT_RETRIES",
    ]);
  });

  it("the file's network does not count as a resume's own --network against the journal", () => {
    const settings = resolveSettings([], host(withFile({ network: true })), {
      runId: "run-1",
      start: { chapter: 3, network: false },
    });
    expect(settings.options.network).toBe(false);
  });

  it("a resume's own --network against the journal is refused", () => {
    expect(() =>
      resolveSettings(["--network"], host({ HOME: home }), {
        runId: "run-1",
        start: { chapter: 3, network: false },
      }),
    ).toThrow("run run-1 was started without --network, and resume keeps it: leave out --network");
  });
});
