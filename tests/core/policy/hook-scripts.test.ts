/** What a request says of a git hook that runs the file written, by how it runs it. */
import { describe, expect, it } from "vitest";
import { hookRunReason, type HookScriptRun } from "../../../src/core/policy/hook-scripts.js";
import { laterRunReason } from "../../../src/core/policy/later-scripts.js";

const kind = "git-hook";

describe("hookRunReason", () => {
  it.each<[HookScriptRun, string]>([
    [
      { kind, hook: "pre-commit", file: ".husky/pre-commit" },
      "git's pre-commit hook (.husky/pre-commit) runs it at the next commit",
    ],
    [
      { kind, hook: "pre-push", file: "githooks/pre-push", named: true },
      "git's pre-push hook (githooks/pre-push) names it, and may run it at the next push",
    ],
    [
      {
        kind,
        hook: "post-checkout",
        file: ".git/hooks/post-checkout",
        unread: "it is not a script",
      },
      "git's post-checkout hook (.git/hooks/post-checkout) cannot be read fully (it is not a script), so it may run it at the next checkout",
    ],
    [
      { kind, hook: "sendemail-validate", file: "/repo/.git/hooks/sendemail-validate" },
      "git's sendemail-validate hook (/repo/.git/hooks/sendemail-validate) runs it when git next runs it",
    ],
    [
      { kind, hook: "hooks", file: ".git/hooks", unread: "EACCES: permission denied" },
      "git's hooks folder (.git/hooks) cannot be read fully (EACCES: permission denied), so a hook in it may run it when git next runs it",
    ],
  ])("%j → %s", (run, reason) => {
    expect(hookRunReason(run)).toBe(reason);
    expect(laterRunReason(run)).toBe(reason);
  });

  it("an install-time script keeps its own words", () => {
    expect(
      laterRunReason({ kind: "install-script", manifest: "package.json", script: "postinstall" }),
    ).toBe("package.json's postinstall runs it at the next npm install");
  });
});
