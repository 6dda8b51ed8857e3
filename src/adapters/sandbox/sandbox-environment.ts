/**
 * The variables the sandbox adds to the allowlisted environment: package-tool caches in the
 * sandbox's own writable cache, a config home for one command (the home directory is read-only in
 * here), update notifiers off, and, with the
 * network off, each tool's offline or no-retry setting, so an install fails in seconds with words
 * that say why instead of retrying for a minute.
 */

/**
 * Where the cache is inside the sandbox: on the private /tmp, so it is writable even when no host
 * directory is bound there (it then lasts one command); the runner binds the per-workspace cache
 * directory over it when it has one.
 */
export const SANDBOX_CACHE = "/tmp/.agent-cache";

/** A writable config home that lasts one command (the sandbox's /tmp is its own each time). */
export const SANDBOX_CONFIG_HOME = "/tmp/.config";

/**
 * cargo's home lasts one command: cargo reads `config.toml` there (a `build.rustc-wrapper` or
 * `target.*.runner` is a program every later `cargo build` runs) and runs `bin/cargo-*` as
 * subcommands. Only its download stores are kept (KEPT_STORES).
 */
export const SANDBOX_CARGO_HOME = "/tmp/.cargo";

/**
 * Stores of the kept cache bound into a home that otherwise lasts one command: downloads, which
 * a tool checks against the project's lockfile, never configuration or programs it looks up.
 */
export const KEPT_STORES: readonly { readonly kept: string; readonly at: string }[] = Object.freeze(
  [
    { kept: "cargo/registry", at: `${SANDBOX_CARGO_HOME}/registry` },
    { kept: "cargo/git", at: `${SANDBOX_CARGO_HOME}/git` },
  ],
);

/**
 * Folders inside a kept store that last one command anyway (an empty tmpfs over each): npx
 * installs packages into `_npx` and runs their programs by name at the next `npx NAME`.
 */
export const PER_COMMAND_IN_CACHE: readonly string[] = Object.freeze(["npm/_npx"]);

export function cacheEnvironment(cache: string = SANDBOX_CACHE): Record<string, string> {
  return {
    npm_config_cache: `${cache}/npm`,
    PNPM_HOME: `${cache}/pnpm`,
    YARN_CACHE_FOLDER: `${cache}/yarn`,
    YARN_GLOBAL_FOLDER: `${cache}/yarn-global`,
    PIP_CACHE_DIR: `${cache}/pip`,
    CARGO_HOME: SANDBOX_CARGO_HOME,
    GOCACHE: `${cache}/go-build`,
    GOMODCACHE: `${cache}/go-mod`,
    NUGET_PACKAGES: `${cache}/nuget/packages`,
    NUGET_HTTP_CACHE_PATH: `${cache}/nuget/http-cache`,
    // The .NET CLI's home holds its local-tool resolver cache (which dll `dotnet TOOL` runs) and
    // NuGet's user config: one command's, on the private /tmp.
    DOTNET_CLI_HOME: "/tmp/.dotnet-home",
    // Whatever else tools put under ~/.cache is not known to be data only: pre-commit's hook
    // environments, corepack's package managers, browsers a test runner starts, `pnpm dlx`
    // packages are programs a later command runs by name. One command's, on the private /tmp.
    XDG_CACHE_HOME: "/tmp/.cache",
    // What tools write under ~/.config (configstore, update-notifier: ava and many CLIs), which
    // is read-only in here, or they print a box asking for sudo. On the private /tmp, never in the
    // kept cache: git, pip and gh *read* their configuration there too, so a kept one would let
    // one approved command plant a git alias or fsmonitor that every later command runs.
    XDG_CONFIG_HOME: SANDBOX_CONFIG_HOME,
  };
}

/**
 * Always set: a version check is noise to the person and the model alike, and with the network
 * off it cannot succeed anyway.
 */
export const QUIET_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  NO_UPDATE_NOTIFIER: "1",
  npm_config_update_notifier: "false",
  PIP_DISABLE_PIP_VERSION_CHECK: "1",
  DENO_NO_UPDATE_CHECK: "1",
  DOTNET_CLI_TELEMETRY_OPTOUT: "1",
  DOTNET_NOLOGO: "1",
});

/** Set only when the network is off: fail at once rather than retry a network that is not there. */
export const OFFLINE_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  npm_config_offline: "true",
  npm_config_fetch_retries: "0",
  npm_config_audit: "false",
  YARN_ENABLE_OFFLINE_MODE: "1",
  PIP_NO_INDEX: "1",
  PIP_RETRIES: "0",
  GOPROXY: "off",
  GOFLAGS: "-mod=mod",
  GOSUMDB: "off",
  CARGO_NET_OFFLINE: "true",
  CARGO_NET_RETRY: "0",
});

/** The variables a sandboxed command gets on top of the allowlist. */
export function sandboxEnvironment(network: boolean): Record<string, string> {
  return {
    ...cacheEnvironment(),
    ...QUIET_ENVIRONMENT,
    ...(network ? {} : OFFLINE_ENVIRONMENT),
  };
}
