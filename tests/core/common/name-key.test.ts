import { describe, expect, it } from "vitest";
import { nameKey } from "../../../src/core/common/name-key.js";
import { loadedLaterReason } from "../../../src/core/policy/loaded-later-files.js";

describe("nameKey: a name as some filesystem takes it", () => {
  it.each([
    ["AGENTS.md", "agents.md"],
    ["AGENTS.MD", "agents.md"],
    ["agent\u017f.md", "agents.md"], // long s
    ["Jen\u212ainsfile", "jenkinsfile"], // Kelvin sign
    [".g\u0131thub", ".github"], // dotless i
    ["AGENTS.md.", "agents.md"],
    ["AGENTS.md . ", "agents.md"],
    ["AGENTS.md::$DATA", "agents.md"],
    ["AGEN\u200cTS.md", "agents.md"],
    ["cafe\u0301.md", "caf\u00e9.md"],
    [".", "."],
    ["..", ".."],
  ])("%j is %j", (name, key) => {
    expect(nameKey(name)).toBe(key);
  });
});

describe("loadedLaterReason by every name a filesystem takes for a loaded-later file", () => {
  it.each([
    "AGENTS.md.",
    "docs/AGENTS.md ",
    "AGENTS.md::$DATA",
    "agent\u017f.md",
    ".GitHub/Workflows/ci.yml",
    ".github./workflows/ci.yml",
    ".g\u0131thub/workflows/ci.yml",
    ".vscode /tasks.json",
    "Jen\u212ainsfile",
    "PACKAGE.JSON",
    ".ENVRC",
  ])("%j is loaded later", (path) => {
    expect(loadedLaterReason(path)).toBeDefined();
  });

  it.each(["README.md", "agents.md.txt", "src/github/ci.yml", "notes/agents"])(
    "%j is not",
    (path) => {
      expect(loadedLaterReason(path)).toBeUndefined();
    },
  );
});
