/**
 * The per-workspace cache outlives each command, out of the person's sight (in the state
 * directory). So nothing a later command loads as configuration or runs by name may be kept
 * there: cargo's home (its `config.toml` names a `rustc-wrapper` every later `cargo build` runs),
 * the .NET CLI's home, npx's packages, whatever else tools put under ~/.cache; each lasts one
 * command. Downloads checked against a lockfile are kept (npm's `_cacache`, cargo's registry).
 */
import { existsSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BubblewrapRunner } from "../../../src/adapters/sandbox/bubblewrap.js";
import { sandboxEnvironment } from "../../../src/adapters/sandbox/sandbox-environment.js";
import { buildCommandEnvironment } from "../../../src/adapters/shell/command-environment.js";
import { BWRAP_REASON } from "../../support/bubblewrap.js";
import { BWRAP, hostExecutable } from "../../support/host-executables.js";

const BASH = hostExecutable("bash");
const LIMITS = { timeoutMs: 30_000, maxOutputBytes: 64 * 1024 };

describe("what the sandbox keeps between commands", () => {
  it("every home or config folder it sets lies on the private /tmp, outside the kept cache", () => {
    const environment = sandboxEnvironment(false);
    for (const name of ["CARGO_HOME", "DOTNET_CLI_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"]) {
      expect(environment[name], name).toMatch(/^\/tmp\//u);
      expect(environment[name], name).not.toMatch(/^\/tmp\/\.agent-cache(?:\/|$)/u);
    }
  });
});

describe.skipIf(BWRAP === undefined || BASH === undefined)(
  `the kept cache in real bubblewrap ${BWRAP_REASON}`,
  () => {
    let base: string;
    let ws: string;
    let cache: string;

    beforeEach(async () => {
      base = await mkdtemp(join(await realpath(tmpdir()), "kept-cache-"));
      ws = join(base, "ws");
      cache = join(base, "cache");
      mkdirSync(ws);
      mkdirSync(cache, { mode: 0o700 });
    });
    afterEach(async () => {
      await rm(base, { recursive: true, force: true });
    });

    const runner = (): BubblewrapRunner =>
      new BubblewrapRunner({
        bwrapPath: BWRAP ?? "",
        shell: { executable: BASH ?? "", kind: "bash" },
        workspace: ws,
        home: base,
        network: false,
        environment: buildCommandEnvironment(
          { PATH: process.env.PATH, HOME: base, LANG: "C.UTF-8" },
          { passEnv: [], platform: "linux" },
        ),
        cacheDirectory: cache,
      });

    async function run(command: string): Promise<string> {
      return (await runner().run(command, ws, LIMITS)).output;
    }

    it("a config or program one command plants is gone at the next; downloads stay", async () => {
      const planted = await run(
        [
          'mkdir -p "$CARGO_HOME/bin" "$CARGO_HOME/registry/cache" "$DOTNET_CLI_HOME/.dotnet" "$XDG_CACHE_HOME/pre-commit" "$npm_config_cache/_npx/x" "$npm_config_cache/_cacache"',
          `printf '[build]\\nrustc-wrapper = "/workspace/evil"\\n' > "$CARGO_HOME/config.toml"`,
          'echo evil > "$CARGO_HOME/bin/cargo-build2"',
          'echo crate > "$CARGO_HOME/registry/cache/a.crate"',
          'echo evil > "$DOTNET_CLI_HOME/.dotnet/toolResolverCache"',
          'echo evil > "$XDG_CACHE_HOME/pre-commit/hook"',
          'echo evil > "$npm_config_cache/_npx/x/cli.js"',
          'echo tarball > "$npm_config_cache/_cacache/entry"',
          "echo PLANTED",
        ].join(" && "),
      );
      expect(planted).toBe("PLANTED\n");

      const next = await run(
        'for f in "$CARGO_HOME/config.toml" "$CARGO_HOME/bin/cargo-build2" "$DOTNET_CLI_HOME/.dotnet/toolResolverCache" "$XDG_CACHE_HOME/pre-commit/hook" "$npm_config_cache/_npx/x/cli.js" "$CARGO_HOME/registry/cache/a.crate" "$npm_config_cache/_cacache/entry"; do if [ -e "$f" ]; then echo "kept $f"; else echo "gone $f"; fi; done',
      );
      expect(next.split("\n")).toEqual([
        "gone /tmp/.cargo/config.toml",
        "gone /tmp/.cargo/bin/cargo-build2",
        "gone /tmp/.dotnet-home/.dotnet/toolResolverCache",
        "gone /tmp/.cache/pre-commit/hook",
        "gone /tmp/.agent-cache/npm/_npx/x/cli.js",
        "kept /tmp/.cargo/registry/cache/a.crate",
        "kept /tmp/.agent-cache/npm/_cacache/entry",
        "",
      ]);
      // On the host: the download is in the kept cache; npx's folder is empty, nothing else.
      expect(existsSync(join(cache, "cargo", "registry", "cache", "a.crate"))).toBe(true);
      expect(readdirSync(join(cache, "npm", "_npx"))).toEqual([]);
      expect(readdirSync(join(cache, "cargo")).sort()).toEqual(["git", "registry"]);
    });

    it("a kept store a command turned into a link is not bound: it would name another folder", async () => {
      const outside = join(base, "outside");
      mkdirSync(outside);
      await run("true"); // makes the stores
      await run(
        `rm -rf /tmp/.agent-cache/cargo/registry && ln -s '${outside}' /tmp/.agent-cache/cargo/registry`,
      );
      expect(lstatSync(join(cache, "cargo", "registry")).isSymbolicLink()).toBe(true);

      const output = await run(
        'mkdir -p "$CARGO_HOME/registry" && echo x > "$CARGO_HOME/registry/planted" && echo WROTE',
      );
      // Written on the command's own /tmp, not through the link.
      expect(output).toBe("WROTE\n");
      expect(readdirSync(outside)).toEqual([]);
    });
  },
);
