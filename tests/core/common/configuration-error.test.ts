import { describe, expect, it } from "vitest";
import { CommandAllowlistError } from "../../../src/adapters/commands/index.js";
import { HarnessFileError } from "../../../src/adapters/filesystem/index.js";
import { RunJournalError, RunLockedError } from "../../../src/adapters/journal/index.js";
import { ModelConfigError } from "../../../src/adapters/model/index.js";
import { ShellUnavailableError } from "../../../src/adapters/shell/index.js";
import { ApprovalStoreError, StateDirectoryError } from "../../../src/adapters/state/index.js";
import { BootstrapError } from "../../../src/bootstrap/bootstrap-error.js";
import { CliConfigError } from "../../../src/cli/config-error.js";
import { ConfigurationError } from "../../../src/core/common/configuration-error.js";
import { AgentRunError } from "../../../src/core/common/agent-errors.js";

describe("ConfigurationError", () => {
  it.each([
    [CliConfigError, "CliConfigError"],
    [ModelConfigError, "ModelConfigError"],
    [HarnessFileError, "HarnessFileError"],
    [ShellUnavailableError, "ShellUnavailableError"],
    [CommandAllowlistError, "CommandAllowlistError"],
    [StateDirectoryError, "StateDirectoryError"],
    [ApprovalStoreError, "ApprovalStoreError"],
    [RunJournalError, "RunJournalError"],
    [RunLockedError, "RunLockedError"],
    [BootstrapError, "BootstrapError"],
  ] as const)("%o is one (exit 2) and keeps its name and message", (Type, name) => {
    const error = new Type("the exact message");
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.message).toBe("the exact message");
    expect(String(error)).toBe(`${name}: the exact message`);
  });

  it("a failed run is not one", () => {
    expect(new AgentRunError("x")).not.toBeInstanceOf(ConfigurationError);
  });
});
