/**
 * `agent <command> --help`: each command's own usage, not the whole program's. `runs` and `config`
 * keep theirs beside their code; these are the rest.
 */
const WORKSPACE = `  --workspace <dir>   The workspace (default: the directory you ran the command
                      from: $INIT_CWD under npm, else the current directory)`;
const WHERE = `${WORKSPACE}
  --state-dir <dir>   Where runs and approvals are kept (default:
                      $AGENT_STATE_DIR, else $XDG_STATE_HOME/agent-harness or
                      ~/.local/state/agent-harness; on Windows
                      %LOCALAPPDATA%\\agent-harness)`;
/** approve and deny write the answer to the audit log too (approve.ts). */
const AUDIT = `  --audit-log <file>  Also append the answer to this audit log (default:
                      $AGENT_AUDIT_LOG)`;

export const SUBCOMMAND_HELP: ReadonlyMap<string, string> = new Map([
  [
    "resume",
    `Usage: agent resume [<run-id> | --last] [options]

Goes on with a run after a crash, a kill, a failure or a wait for an approval
(default: the newest if it is unfinished, waiting or failed, else the newest
unfinished or waiting one). --last (or -c) takes the newest run whatever its
state, such as a conversation killed at its prompt. A call that was running is
reported unknown to the model, never run again. Takes the run options
(agent --help) except --prompt, --chapter, --profile and --model (the run's
own); --sandbox, --network and --command-timeout stay as the run began. On a
terminal the run goes on as a conversation once it has answered.
  agent resume
  agent resume --last
  agent resume 20260101T120000Z-1a2b3c4d`,
  ],
  [
    "approvals",
    `Usage: agent approvals [--workspace <dir>] [--state-dir <dir>] [--json]

Lists chapter 4's requests still waiting for an answer: id, run, expiry, what
the call would do and its risks. --json prints one JSON array.
  agent approvals
${WHERE}`,
  ],
  [
    "approve",
    `Usage: agent approve <request-id> [--ttl 15m] [--workspace <dir>]
                     [--state-dir <dir>] [--audit-log <file>]

Grants one run of exactly the action in the request (same tool, arguments,
directory, sandbox); the waiting run gets it at agent resume. --ttl says how
long the grant counts (default 15m).
  agent approve req_0123abcd
${WHERE}
${AUDIT}`,
  ],
  [
    "deny",
    `Usage: agent deny <request-id> [--workspace <dir>] [--state-dir <dir>]
                  [--audit-log <file>]

Refuses the request: at agent resume the waiting call returns a denial to the
model, and nothing of it runs.
  agent deny req_0123abcd
${WHERE}
${AUDIT}`,
  ],
  [
    "commands",
    `Usage: agent commands [--workspace <dir>] [--state-dir <dir>]

Prints chapter 4's command allowlist and where each entry comes from.
  agent commands
${WHERE}`,
  ],
  [
    "mcp",
    `Usage: agent mcp [--workspace <dir>] [--state-dir <dir>]

Starts each MCP server of your settings file (mcpServers) as a run would, says
whether it is ready and which tools it offers, then stops it. See docs/mcp.md.
  agent mcp
  --workspace <dir>   Where stdio servers start (default: the directory you ran
                      the command from: $INIT_CWD under npm, else the current
                      directory)
  --state-dir <dir>   Taken as the other commands take it; agent mcp keeps
                      nothing there`,
  ],
  [
    "explain",
    `Usage: agent explain <tool> '<json>' [--chapter N | --profile daily] [options]

A dry run of one tool call through the permission policy: how it is prepared,
which rule decides, and whether it would ask. Nothing runs and no model is
asked. It takes the run options that decide a call, as a run takes them
(--chapter, --profile, --sandbox, --network, --shell, --pass-env,
--sandbox-unmask, --sandbox-limit, --command-timeout, --audit-log,
--workspace, --state-dir), and the settings file's.
  agent explain shell '{"command":"rm -rf build"}'
  agent explain write_file '{"path":"a.txt","content":"x"}' --profile daily`,
  ],
]);
