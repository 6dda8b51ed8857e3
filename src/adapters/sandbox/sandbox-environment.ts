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

export function cacheEnvironment(cache: string = SANDBOX_CACHE): Record<string, string> {
  return {
    npm_config_cache: `${cache}/npm`,
    PNPM_HOME: `${cache}/pnpm`,
    YARN_CACHE_FOLDER: `${cache}/yarn`,
    YARN_GLOBAL_FOLDER: `${cache}/yarn-global`,
    PIP_CACHE_DIR: `${cache}/pip`,
    CARGO_HOME: `${cache}/cargo`,
    GOCACHE: `${cache}/go-build`,
    GOMODCACHE: `${cache}/go-mod`,
    NUGET_PACKAGES: `${cache}/nuget/packages`,
    NUGET_HTTP_CACHE_PATH: `${cache}/nuget/http-cache`,
    DOTNET_CLI_HOME: `${cache}/dotnet`,
    // What the other tools put under ~/.cache (pip's fallback, pnpm's metadata, go's default).
    XDG_CACHE_HOME: `${cache}/xdg`,
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
