/**
 * `agent run --chapter 3 --prompt "…"`: the tutorial's single entry (`npm run agent-tutorial --
 * run …`) names the run before its options. The word is dropped when something follows it; `agent
 * run` alone is still a lookalike of `agent runs` (lookalike.ts), never a one-word task.
 */
export const RUN_WORD = "run";

export function withoutRunWord(argv: readonly string[]): readonly string[] {
  return argv[0] === RUN_WORD && argv.length > 1 ? argv.slice(1) : argv;
}
