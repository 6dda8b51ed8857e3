import { describe, expect, it } from "vitest";
import { renderApprovalPrompt } from "../../../src/cli/terminal/approval/terminal-approval.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { preparedCall } from "../../support/prepared-calls.js";

/** A chapter-4 write to a file a package manager loads later, its reason long prose. */
const LOADED_LATER = PermissionDecision.ask(
  "package.json is loaded later: a package manager runs their scripts and the programs they name at the next install or npm command (the scripts a grant binds among them; node-gyp a binding.gyp; the patches it applies)",
  "loaded-later",
);

describe("the approval prompt's rows at 80 columns", () => {
  it("breaks prose between words, and keeps the note of what is not shown on one row", () => {
    const content = "x".repeat(231);
    const request = new PermissionRequest(
      preparedCall("write_file", "write", { path: "package.json", content }),
    ).withProposedDecision(LOADED_LATER);
    const json = `{"path":"package.json","content":"${content}"}`;
    const rows = renderApprovalPrompt(request, "en", 80, ["  +x"]).details.split("\n");
    expect(rows).toEqual([
      "",
      "Proposed change:",
      "  +x",
      "",
      "Tool call needs approval: write_file",
      "Reason: package.json is loaded later: a package manager runs their scripts and",
      "  the programs they name at the next install or npm command (the scripts a",
      "  grant binds among them; node-gyp a binding.gyp; the patches it applies)",
      `Arguments: ${json.slice(0, 68)}`,
      `  ${json.slice(68, 140)} `,
      `  … (67 more characters not shown) … ${json.slice(-60, -20)}`,
      `  ${json.slice(-20)}`,
      "Writes: 231 bytes in 1 line (the whole content)",
      'Path: "package.json"',
      "",
    ]);
  });
});
