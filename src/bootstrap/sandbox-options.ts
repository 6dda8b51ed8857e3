/**
 * What the CLI needs to read the sandbox's own flags (`--sandbox-limit`, `--sandbox-unmask`): the
 * CLI reaches adapters only through bootstrap, and the sandbox adapter owns these rules.
 */
export {
  CREDENTIAL_PATHS,
  DEFAULT_RESOURCE_LIMITS,
  parseResourceLimits,
  ResourceLimitError,
  type ResourceLimits,
} from "../adapters/sandbox/index.js";
