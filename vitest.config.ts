import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Real processes, PTYs and sandboxes share two cores: give slow machines room, never a race.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
