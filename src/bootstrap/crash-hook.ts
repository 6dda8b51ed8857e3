/**
 * For the crash tests only: `AGENT_TEST_KILL_AFTER_RECORD=<type>[:<n>]` kills the process with
 * SIGKILL right after the n-th (default first) journal record of that type is written (on disk,
 * unless it is effect-free and its flush is still under way), the way `kill -9` would, so every
 * step of the journal can be shown to resume.
 */
import type { AppendOptions, JournalRecord, RunJournal } from "../core/journal/journal-records.js";

export function withCrashHook(
  journal: RunJournal,
  env: Readonly<Record<string, string | undefined>>,
): RunJournal {
  const spec = env.AGENT_TEST_KILL_AFTER_RECORD;
  if (spec === undefined || spec === "") return journal;
  const [type, nth] = spec.split(":");
  let remaining = nth === undefined ? 1 : Number(nth);
  // The before-images go on to the journal's own file: a write's kill point is its file_before.
  const keepImage = journal.keepImage?.bind(journal);
  return {
    async append(record: JournalRecord, options?: AppendOptions): Promise<void> {
      await journal.append(record, options);
      if (record.type === type && --remaining === 0) process.kill(process.pid, "SIGKILL");
    },
    ...(keepImage === undefined ? {} : { keepImage }),
  };
}
