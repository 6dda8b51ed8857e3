import { resolveExecutable } from "../../src/adapters/shell/index.js";

/** bubblewrap is on this Linux machine's PATH: the tests that need the real sandbox run. */
export const HAS_BWRAP =
  process.platform === "linux" &&
  resolveExecutable("bwrap", { env: process.env, workspace: "/nonexistent", platform: "linux" }) !==
    undefined;
