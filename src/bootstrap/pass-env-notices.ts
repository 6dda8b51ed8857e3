/** For the CLI: `--pass-env` names that will not reach commands, and why (adapters/shell). */
export { passEnvNotices } from "../adapters/shell/index.js";
