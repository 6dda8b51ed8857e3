import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/**
 * Temp directories for one test file, all removed after its last test: call at the file's top
 * level (or in a describe), then `make()` for each. A test that makes its own with `mkdtempSync`
 * and never removes it leaves one behind per run: a run-lock matrix alone had left ~100,000 in
 * a developer's /tmp within a day.
 */
export function scratchDirectories(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const directory of made.splice(0)) {
      try {
        rmSync(directory, { recursive: true, force: true });
      } catch {
        // one a test left unreadable: not this clean-up's failure to report
      }
    }
  });
  return () => {
    const directory = mkdtempSync(join(tmpdir(), prefix));
    made.push(directory);
    return directory;
  };
}
