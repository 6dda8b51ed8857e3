import { configDefaults, defineConfig } from "vitest/config";

// Real processes, PTYs and sandboxes share two cores: give slow machines room, never a race.
const timeouts = { testTimeout: 30_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    // Two projects so that the build the end-to-end tests need runs once, and only when they run.
    projects: [
      {
        test: {
          name: "unit",
          include: ["tests/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "tests/e2e/**"],
          ...timeouts,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/e2e/global-setup.ts"],
          ...timeouts,
        },
      },
    ],
  },
});
