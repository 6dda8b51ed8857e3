/**
 * What the model is told, once, when its commands run in the sandbox with the network off: in the
 * system prompt and in the shell tool's description. Without it a model retries an install again
 * and again; with it, it asks the person. One text, so the two places cannot drift apart.
 */
export const SANDBOX_NETWORK_OFF_NOTICE =
  "Commands run in a sandbox with the network off: package installs, downloads and other network " +
  "access will fail (package tools are set to work offline, from their cache). Do not retry them; " +
  "ask the person to re-run the agent with --network if the task needs the network. The " +
  "repository's git metadata is read-only there: git add, commit and other commands that write " +
  "it fail; leave them to the person.";

/**
 * Said in every request after the sandbox probe decided, when the requests before went out with a
 * remembered verdict (see bootstrap's probe verdict cache) that the probe then contradicted: the
 * model may have planned its replies on it.
 */
export const SANDBOX_NETWORK_NOTICE_CORRECTIONS = Object.freeze({
  networkOn:
    "Correction: earlier requests of this conversation said commands run in a sandbox with the " +
    "network off. That was wrong: commands run on the host, where the network is on.",
  networkOff:
    "Correction: earlier requests of this conversation did not say so, but commands run in a " +
    "sandbox with the network off (see above).",
});
