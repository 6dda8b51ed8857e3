import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

// Real processes, PTYs and sandboxes share two cores: give slow machines room, never a race.
const timeouts = { testTimeout: 30_000, hookTimeout: 120_000 };

// Long matrices, races and interleavings are named `*.slow.test.ts`, anywhere under tests/: they
// run in the `slow` project, which `npm run test:all` (and CI) runs and `npm test` does not.
const SLOW = "tests/**/*.slow.test.ts";
// A unit file shares its worker's module cache with the files before it (`isolate: false`): most
// of a fresh module graph per file was the suite's largest cost, about half of its CPU time. A
// file that replaces a module (`vi.mock`) or stubs process-wide state is named
// `*.isolated.test.ts` and gets a graph of its own; tests/architecture/test-isolation.test.ts
// keeps that rule.
const ISOLATED = "tests/**/*.isolated.test.ts";
// The end-to-end tests drive the built CLI: their global setup builds it once and makes the one
// state directory every CLI run uses. Shared by the fast and the slow end-to-end files (it builds
// once even when both projects run).
const e2eSetup = ["tests/e2e/global-setup.ts"];

export default defineConfig({
  test: {
    // The suite waits on real processes (pwsh, bubblewrap, pseudo-terminals, the built CLI) far
    // more than it computes, so files run side by side even on two cores. vitest's own default,
    // availableParallelism − 1, is a single worker there: every wait in turn. At least two, and
    // one per core on larger machines; no test depends on how many run beside it.
    maxWorkers: Math.max(2, availableParallelism()),
    fileParallelism: true,
    reporters: ["default", "./tests/support/project-times-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["tests/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "tests/e2e/**", SLOW, ISOLATED],
          isolate: false,
          ...timeouts,
        },
      },
      {
        test: {
          name: "isolated",
          include: [ISOLATED],
          exclude: [...configDefaults.exclude, SLOW],
          ...timeouts,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          exclude: [...configDefaults.exclude, SLOW],
          isolate: false,
          globalSetup: e2eSetup,
          ...timeouts,
        },
      },
      {
        test: {
          name: "slow",
          include: [SLOW],
          // Slow end-to-end files need the build too; for a run of only slow unit files it costs
          // one bundle (about a second).
          globalSetup: e2eSetup,
          ...timeouts,
        },
      },
    ],
  },
});
