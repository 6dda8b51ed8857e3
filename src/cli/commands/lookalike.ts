/**
 * `agent resme`, `agent run`, `agent help`: one word that is not a subcommand but looks like one
 * is far more likely a typo than a task, and a task costs a model request (and may act). Such a
 * word gets "did you mean" instead; a task of several words (`agent "run the tests"`) is a task,
 * and a one-word task is still possible with `--prompt`.
 */

/** The words that ask for something other than a task, with what to type instead. */
const EXACT: ReadonlyMap<string, string> = new Map([
  ["help", "agent --help"],
  ["version", "agent --version"],
]);

const MAX_DISTANCE = 2;

/** The task when it was given as the positional argument, not with `--prompt` (which is meant). */
export function positionalTask(
  argv: readonly string[],
  prompt: string | undefined,
): string | undefined {
  const flagged = argv.some(
    (arg) => arg === "--prompt" || arg.startsWith("--prompt=") || arg.startsWith("-p"),
  );
  return flagged ? undefined : prompt;
}

/** What the person probably meant by `word`, or undefined when it may well be a task. */
export function lookalikeCommand(word: string, subcommands: readonly string[]): string | undefined {
  if (!/^[A-Za-z][A-Za-z-]*$/.test(word)) return undefined;
  const lower = word.toLowerCase();
  const exact = EXACT.get(lower);
  if (exact !== undefined) return exact;
  let best: { name: string; distance: number } | undefined;
  for (const name of subcommands) {
    const distance = editDistance(lower, name);
    // Two edits turn "ci" into "mcp": a short name takes one edit per three of its letters.
    const allowed = Math.min(MAX_DISTANCE, Math.floor(name.length / 3));
    if (distance <= allowed && (best === undefined || distance < best.distance)) {
      best = { name, distance };
    }
  }
  return best === undefined ? undefined : `agent ${best.name}`;
}

export function lookalikeMessage(word: string, meant: string): string {
  return `"${word}" looks like a command, not a task: did you mean ${meant}? (a one-word task: agent --prompt "${word}")`;
}

/**
 * Edits from `a` to `b`: insertions, deletions, substitutions and swaps of two neighbours
 * (`mpc` for `mcp`), one each (optimal string alignment).
 */
export function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (beforePrevious[j - 2] ?? 0) + 1);
      }
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
